// The billing module's front door: the subscription rule and the subscription record.
export { buildBillingModule } from './module.js';
export { Subscription } from './schemas.js';
export type { SubscriptionService } from './service.js';
export { isSubscriptionActive, loadSubscription, openTrial, presentSubscription, type SubscriptionRow } from './subscription.js';
