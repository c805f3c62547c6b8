// Builds the delivery worker (the generic job worker running the delivery kind with its
// handler and transport), for `serve` (in-process), `svc worker`, tests and benchmarks.
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { type JobLog, JobWorker } from '../../db/jobs/worker.js';
import { type Resolver, systemResolver } from '../../lib/address-policy.js';
import type { Clock } from '../../lib/clock.js';
import { deliveryHandlers } from './delivery-handler.js';
import { type WebhookDeliveryJob, webhookDeliveryJob } from './delivery-job.js';
import { WebhookTransport } from './transport.js';

export interface WebhookWorkerDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: JobLog;
  resolver?: Resolver;
  /** Extra trusted CAs (tests); operators use NODE_EXTRA_CA_CERTS. */
  ca?: string[];
  name?: string;
  random?: () => number;
  /** Connect (TCP and TLS) time-out per attempt; defaults to CONNECT_TIMEOUT_MS (5 s). Tests shrink it. */
  connectTimeoutMs?: number;
  /** Whole-attempt time-out; defaults to ATTEMPT_TIMEOUT_MS (15 s). Tests shrink it. */
  attemptTimeoutMs?: number;
  /** The kind as the job catalogue built it; by default built here from `config`. */
  kind?: WebhookDeliveryJob;
}

export interface WebhookWorkerHandle {
  worker: JobWorker<WebhookDeliveryJob>;
  /** Stops claiming, waits for attempts in flight, closes connections. */
  close(): Promise<void>;
}

export function createWebhookWorker(deps: WebhookWorkerDeps): WebhookWorkerHandle {
  const transport = new WebhookTransport({
    addressPolicy: { allowPrivate: deps.config.allowPrivateNetworks, resolver: deps.resolver ?? systemResolver },
    ca: deps.ca,
    connectTimeoutMs: deps.connectTimeoutMs,
    attemptTimeoutMs: deps.attemptTimeoutMs,
  });
  const kind = deps.kind ?? webhookDeliveryJob(deps.config);
  const handlers = deliveryHandlers({ db: deps.db, clock: deps.clock, config: deps.config, kind, transport, random: deps.random ?? Math.random });
  const worker = new JobWorker({ db: deps.db, clock: deps.clock, log: deps.log, kind, handlers, name: deps.name });
  return {
    worker,
    async close() {
      await worker.stop();
      await transport.close();
    },
  };
}
