// The background workers of the devices module: the lifecycle job (placing, booting,
// stopping, deleting; job.ts) and the sweep of expired leases. Made when started, so a
// process that never starts them opens nothing.
import type { BackgroundWorker } from '../../../core/worker.js';
import type { Db } from '../../../db/database.js';
import { type JobLog, JobWorker } from '../../../db/jobs/worker.js';
import type { Clock } from '../../../lib/clock.js';
import type { DeviceHost } from '../hosts/index.js';
import type { LeaseService } from '../leases/service.js';
import { type DeviceLifecycleJob, deviceLifecycleJob } from './job.js';
import { lifecycleHandlers, type StopActiveRun } from './handler.js';

export interface LifecycleWorkerDeps {
  db: Db;
  clock: Clock;
  log: JobLog;
  host: DeviceHost;
  stopActiveRun: StopActiveRun;
  kind?: DeviceLifecycleJob;
  /** Names this worker in `locked_by`. */
  name?: string;
}

export function createLifecycleWorker(deps: LifecycleWorkerDeps): JobWorker<DeviceLifecycleJob> {
  const kind = deps.kind ?? deviceLifecycleJob();
  const handlers = lifecycleHandlers({ db: deps.db, clock: deps.clock, host: deps.host, log: deps.log, stopActiveRun: deps.stopActiveRun });
  return new JobWorker({ db: deps.db, clock: deps.clock, log: deps.log, kind, handlers, name: deps.name });
}

export function lifecycleWorker(deps: LifecycleWorkerDeps): BackgroundWorker {
  let worker: JobWorker<DeviceLifecycleJob> | undefined;
  return {
    name: 'device.lifecycle',
    start() {
      worker ??= createLifecycleWorker(deps);
      worker.start();
    },
    async stop() {
      await worker?.stop();
      worker = undefined;
    },
  };
}

export const LEASE_SWEEP_MS = 30_000;

/** Deletes expired leases now and then; expired ones already count as none everywhere, so this only keeps the table small. */
export function leaseSweeper(leases: LeaseService, log: JobLog, everyMs = LEASE_SWEEP_MS): BackgroundWorker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  return {
    name: 'device.lease-sweep',
    start() {
      timer ??= setInterval(() => {
        running = leases.sweepExpired().catch((error: unknown) => log.warn({ err: error }, 'sweeping expired device leases failed; retrying later'));
      }, everyMs);
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
