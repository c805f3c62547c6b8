// Builds the admin module: the operator's API (find users, set a subscription).
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import type { KeyResolver } from '../api-keys/index.js';
import { adminRoutes } from './routes.js';

export interface AdminModuleDeps extends ModuleDeps {
  resolver: KeyResolver;
}

export function buildAdminModule(deps: AdminModuleDeps): BuiltModule<Record<string, never>> {
  return { routes: adminRoutes(deps.db.kysely, deps.clock, deps.resolver), services: {} };
}
