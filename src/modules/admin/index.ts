// The admin module's front door: the operator's API, its guard and `svc admin`.
export { runAdminCommand } from './cli.js';
export { adminGuard } from './guard.js';
export { type AdminModuleDeps, buildAdminModule } from './module.js';
