// buildWorkers(deps): the background work, one generic job worker (src/db/jobs/worker.ts) per
// kind, used by `svc worker` and, unless RUN_WORKERS=false, by `serve`. The catalogue lists
// every kind; each kind states its table, due rows, payload, lease, renewal, retry, time-out
// and lapse rule in one place beside its module (webhooks: delivery-job.ts).
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { AnyJobKind } from './db/jobs/kind.js';
import type { JobLog } from './db/jobs/worker.js';
import type { Clock } from './lib/clock.js';
import { webhookDeliveryJob } from './modules/webhooks/delivery-job.js';
import { queueDeliveriesForEvents } from './modules/webhooks/fan-out.js';
import { createWebhookWorker } from './modules/webhooks/runner.js';

/** Every kind of background work, by name. Device lifecycle, cloud runs, schedules, explorations and authoring add theirs here. */
export function jobCatalogue(config: Config) {
  return {
    'webhook.delivery': webhookDeliveryJob(config),
  } satisfies Record<string, AnyJobKind>;
}

export type JobCatalogue = ReturnType<typeof jobCatalogue>;
export type JobKindName = keyof JobCatalogue;

export interface WorkerDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: JobLog;
}

interface KindWorker {
  worker: { start(): void };
  /** Stops claiming and waits for the jobs in flight. */
  close(): Promise<void>;
}

/** How each kind's worker is built; the type asks for one per catalogue entry. */
const builders: { [K in JobKindName]: (deps: WorkerDeps, kind: JobCatalogue[K]) => KindWorker } = {
  'webhook.delivery': (deps, kind) => createWebhookWorker({ ...deps, kind }),
};

export interface Workers {
  kinds: JobKindName[];
  start(): void;
  close(): Promise<void>;
}

export function buildWorkers(deps: WorkerDeps): Workers {
  const catalogue = jobCatalogue(deps.config);
  // Jobs record events too (a run's end): their deliveries are queued in this process as well.
  queueDeliveriesForEvents(deps.db.wakeup);
  const build = <K extends JobKindName>(name: K) => {
    if (catalogue[name].name !== name) throw new Error(`job catalogue: ${name} is listed under another kind's name (${catalogue[name].name})`);
    return builders[name](deps, catalogue[name]);
  };
  const kinds = Object.keys(catalogue) as JobKindName[];
  const running = kinds.map(build);
  return {
    kinds,
    start: () => running.forEach((kind) => kind.worker.start()),
    close: async () => {
      await Promise.all(running.map((kind) => kind.close()));
    },
  };
}
