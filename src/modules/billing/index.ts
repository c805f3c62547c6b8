// The billing module's front door: the subscription rule and the subscription record.
export { buildBillingModule } from './module.js';
export { SUBSCRIPTION_STATUSES, Subscription } from './schemas.js';
export { isSubscriptionActive, loadSubscription, presentSubscription, setSubscription, type SubscriptionRow, TRIAL_DAYS } from './subscription.js';
