// The webhooks module's front door: endpoints, deliveries and the delivery worker.
export { WebhookDeliveryService } from './deliveries-service.js';
export { WebhookEndpointService } from './endpoints-service.js';
export { webhookRoutes } from './routes.js';
export { createWebhookWorker, type WebhookWorkerHandle } from './runner.js';
