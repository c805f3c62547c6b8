// The webhooks module's front door: the module (endpoints, deliveries and the delivery worker),
// its events subscriber, and its job kind for the worker catalogue.
export { buildWebhooksModule } from './module.js';
export { webhookDeliveryJob } from './delivery-job.js';
export { webhookDeliveries } from './fan-out.js';
