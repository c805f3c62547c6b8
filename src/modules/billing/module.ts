// Builds the billing module: the subscription, read by its account and set by the operator.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { billingRoutes } from './routes.js';
import { type SubscriptionCache, SubscriptionService } from './service.js';

export interface BillingModuleDeps extends ModuleDeps {
  /** The key cache, told after every subscription change. */
  keyCache: SubscriptionCache;
}

export interface BillingServices {
  subscriptions: SubscriptionService;
}

export function buildBillingModule(deps: BillingModuleDeps): BuiltModule<BillingServices> {
  const subscriptions = new SubscriptionService(deps.db.kysely, deps.clock, deps.keyCache);
  return { routes: billingRoutes(subscriptions), services: { subscriptions } };
}
