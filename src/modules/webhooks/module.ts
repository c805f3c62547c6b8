// Builds the webhooks module: endpoints, the delivery log, custom events, and the delivery
// worker (started by `serve` unless RUN_WORKERS=false, and by `svc worker`).
import type { BackgroundWorker } from '../../core/worker.js';
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { type Resolver, systemResolver } from '../../lib/address-policy.js';
import { WebhookDeliveryService } from './deliveries-service.js';
import { WebhookEndpointService } from './endpoints-service.js';
import { webhookRoutes } from './routes.js';
import { createWebhookWorker, type WebhookWorkerHandle } from './runner.js';
import type { JobLog as WorkerLog } from '../../db/jobs/worker.js';
import type { EmitEvent } from '../events/index.js';

export interface WebhooksModuleDeps extends ModuleDeps {
  log: WorkerLog;
  /** Host-name look-ups for address checks; tests inject answers. */
  resolver?: Resolver;
  /** Records the test and custom events; the events module runs webhookDeliveries (fan-out.ts) on them. */
  emit: EmitEvent;
}

export interface WebhooksServices {
  endpoints: WebhookEndpointService;
  deliveries: WebhookDeliveryService;
}

/** The delivery worker, made when started: a process that never starts it opens nothing. */
function deliveryWorker(deps: WebhooksModuleDeps): BackgroundWorker {
  let handle: WebhookWorkerHandle | undefined;
  return {
    name: 'webhook.delivery',
    start() {
      handle ??= createWebhookWorker({ config: deps.config, db: deps.db, clock: deps.clock, log: deps.log });
      handle.worker.start();
    },
    async stop() {
      await handle?.close();
      handle = undefined;
    },
  };
}

export function buildWebhooksModule(deps: WebhooksModuleDeps): BuiltModule<WebhooksServices> {
  const { config, db, clock } = deps;
  const endpoints = new WebhookEndpointService(db.kysely, db.dialect, clock, {
    secretKey: config.secretKey,
    addressPolicy: { allowPrivate: config.allowPrivateNetworks, resolver: deps.resolver ?? systemResolver },
  }, deps.emit);
  const deliveries = new WebhookDeliveryService(db.kysely, clock, db.wakeup, deps.emit);
  return { routes: webhookRoutes(endpoints, deliveries), services: { endpoints, deliveries }, workers: [deliveryWorker(deps)] };
}
