// Builds the delivery worker with its transport, for `serve` (in-process) and `svc worker`.
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { type Resolver, systemResolver } from '../../lib/address-policy.js';
import type { Clock } from '../../lib/clock.js';
import { WebhookTransport } from './transport.js';
import { DeliveryWorker, type WorkerLog } from './worker.js';

export interface WebhookWorkerDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: WorkerLog;
  resolver?: Resolver;
  /** Extra trusted CAs (tests); operators use NODE_EXTRA_CA_CERTS. */
  ca?: string[];
  name?: string;
  random?: () => number;
  /** Connect (TCP and TLS) time-out per attempt; defaults to CONNECT_TIMEOUT_MS (5 s). Tests shrink it. */
  connectTimeoutMs?: number;
  /** Whole-attempt time-out; defaults to ATTEMPT_TIMEOUT_MS (15 s). Tests shrink it. */
  attemptTimeoutMs?: number;
}

export interface WebhookWorkerHandle {
  worker: DeliveryWorker;
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
  const worker = new DeliveryWorker({ db: deps.db, clock: deps.clock, config: deps.config, transport, log: deps.log, name: deps.name, random: deps.random });
  return {
    worker,
    async close() {
      await worker.stop();
      await transport.close();
    },
  };
}
