// The admin module's front door: the operator's API, its guard and `svc admin`.
export { runAdminCommand } from './cli.js';
export { adminGuard } from './guard.js';
export { type AdminModuleDeps, type AdminServices, buildAdminModule } from './module.js';
export type { AdminService } from './service.js';
