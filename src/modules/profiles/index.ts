// The profiles module's front door: settings profiles of code macros.
export { createDefaultProfile, ensureDefaultProfile, readDefaultArgs } from './default-profile.js';
export { buildProfilesModule } from './module.js';
export { runProfile } from './run-profile.js';
