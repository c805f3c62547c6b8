// Builds the billing module: the signed-in account's subscription.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { billingRoutes } from './routes.js';

export function buildBillingModule(deps: ModuleDeps): BuiltModule<Record<string, never>> {
  return { routes: billingRoutes(deps.db.kysely), services: {} };
}
