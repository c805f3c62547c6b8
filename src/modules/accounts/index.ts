// The accounts module's front door: sign-up, sign-in, sessions and the session guard.
export { accountRoutes, type AccountRouteDeps } from './routes.js';
export { User } from './schemas.js';
export { AccountService, normaliseEmail, presentUser } from './service.js';
export { sessionGuard } from './session-guard.js';
