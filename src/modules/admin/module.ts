// Builds the admin module: the operator's API (find users, set a subscription).
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import type { SubscriptionService } from '../billing/index.js';
import { adminRoutes } from './routes.js';
import { AdminService } from './service.js';

export interface AdminModuleDeps extends ModuleDeps {
  subscriptions: SubscriptionService;
}

export interface AdminServices {
  admin: AdminService;
}

export function buildAdminModule(deps: AdminModuleDeps): BuiltModule<AdminServices> {
  const admin = new AdminService(deps.db.kysely, deps.subscriptions);
  return { routes: adminRoutes(admin), services: { admin } };
}
