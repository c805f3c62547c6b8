// The cloud-run job, side by side (listed with every kind in src/workers.ts):
//   table    cloud_runs: the runs are the queue
//   due      state launching (a new run), or stopping before any worker took it (ended at once)
//   payload  the run row while the claim holds it
//   lease    30 s, renewed every 10 s while the run lives; the claim commits before the
//            device is readied and the process started, and every state change is written
//            only while the claim's token still holds the row
//   timeout  RUN_MAX_SECONDS plus time to ready the device; the runner enforces the limit
//            itself, this is the backstop
//   retry    none: device actions are not idempotent
//   lapse    lapsed: a worker that died leaves its lease to run out; any worker then ends the
//            run failed, "worker lost", and never runs it again (run-transitions.ts)
//   workers  RUNS_PER_WORKER runs per process; woken by CLOUD_RUN_JOB, polling every 2 s
//            otherwise. Stops reach the worker holding a run by CLOUD_RUN_STOP (stop-watch.ts).
import type { Kysely } from 'kysely';
import type { Config } from '../../../config.js';
import { defineJobKind, type Lease, NO_RETRY } from '../../../db/jobs/kind.js';
import type { Database } from '../../../db/schema.js';

export const CLOUD_RUN_JOB = 'cloud.run';
/** The wake-up a stop sends: workers look for `stopping` runs among those they hold. */
export const CLOUD_RUN_STOP = 'cloud.run.stop';

export const RUN_LEASE_MS = 30_000;
export const RUN_RENEW_MS = 10_000;
const RUN_POLL_MS = 2_000;
/** Beyond RUN_MAX_SECONDS: starting a stopped device and waiting for `ready`. */
const READY_ALLOWANCE_MS = 10 * 60_000;

export type RunJobSettings = Pick<Config, 'runMaxSeconds' | 'runsPerWorker'>;

export function cloudRunJob(config: RunJobSettings) {
  return defineJobKind({
    name: CLOUD_RUN_JOB,
    table: 'cloud_runs',
    due: (eb) => eb('state', 'in', ['launching', 'stopping']),
    order: 'created_at',
    payload: readHeldRun,
    leaseMs: RUN_LEASE_MS,
    renewEveryMs: RUN_RENEW_MS,
    timeoutMs: config.runMaxSeconds * 1000 + READY_ALLOWANCE_MS,
    retry: NO_RETRY,
    onLapse: 'lapsed',
    concurrency: config.runsPerWorker,
    pollMs: RUN_POLL_MS,
  });
}

export type CloudRunJob = ReturnType<typeof cloudRunJob>;

/** The run while `lease` holds it. */
function readHeldRun(db: Kysely<Database>, lease: Lease) {
  return db
    .selectFrom('cloud_runs')
    .select(['id', 'user_id', 'device_id', 'execution_id', 'state'])
    .where('id', '=', lease.id)
    .where('locked_by', '=', lease.token)
    .where('state', 'in', ['launching', 'stopping'])
    .executeTakeFirst();
}

export type HeldRun = NonNullable<Awaited<ReturnType<typeof readHeldRun>>>;
