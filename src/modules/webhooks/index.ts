// The webhooks module's front door: endpoints, deliveries and the delivery worker.
export type { WebhookDeliveryService } from './deliveries-service.js';
export type { WebhookEndpointService } from './endpoints-service.js';
export { buildWebhooksModule, type WebhooksModuleDeps, type WebhooksServices } from './module.js';
export { createWebhookWorker, type WebhookWorkerHandle } from './runner.js';
export { webhookDeliveryJob, type WebhookDeliveryJob } from './delivery-job.js';
export { webhookDeliveries } from './fan-out.js';
