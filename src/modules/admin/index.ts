// The admin module's front door: the operator's API, its guard and `svc admin`.
export { adminGuard } from './guard.js';
export { runAdminCommand } from './cli.js';
export { buildAdminModule } from './module.js';
