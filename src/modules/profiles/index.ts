// The profiles module's front door: settings profiles of code macros.
export { ensureDefaultProfile } from './default-profile.js';
export { profileRoutes } from './routes.js';
export { ProfileService } from './service.js';
