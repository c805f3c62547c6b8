// The billing module's front door: the subscription rule and the subscription record.
export { type BillingModuleDeps, type BillingServices, buildBillingModule } from './module.js';
export { Subscription } from './schemas.js';
export type { SubscriptionCache, SubscriptionChange, SubscriptionService } from './service.js';
export { isSubscriptionActive, loadSubscription, openTrial, presentSubscription, type SubscriptionRow } from './subscription.js';
