// The accounts module's front door: sign-up, sign-in, sessions and the session guard.
export { buildAccountsModule } from './module.js';
export { User } from './schemas.js';
export { accountContacts, accountExists, accountNames, findAccounts } from './lookups.js';
export { normaliseEmail, presentUser } from './service.js';
export { presentsSession, sessionGuard } from './session-guard.js';
