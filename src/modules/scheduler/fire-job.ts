// The schedule job, side by side (listed with every kind in src/workers.ts):
//   table    schedules: the schedules are the queue
//   due      enabled, its macro and target still there, and next_fire_at has come
//   payload  the schedule row while the claim holds it
//   batch    up to SCHEDULER_BATCH (100) schedules per pass: one read, one statement for their occurrences and
//            one for their next fire times (fire-pass.ts), because at a busy minute the
//            statements per schedule, not the work, were what limited recording
//   lease    15 s, renewed every 5 s while a pass records (a group may hold many devices);
//            the claim commits before anything is written. Short because one claim holds up
//            to SCHEDULER_CONCURRENCY × SCHEDULER_BATCH schedules: a worker that dies with
//            them leaves them late by at most the lease, and a pass takes well under a second
//   timeout  5 minutes per pass
//   retry    on lapse the pass is simply due again: every occurrence it would write is an
//            insert-or-nothing on (schedule, fire time, device), so a second pass starts
//            nothing the first one started, whichever worker makes it
//   workers  SCHEDULER_CONCURRENCY passes per process, looking every SCHEDULER_POLL_MS
//            (fire times come with the clock, not with a write, so polling is the trigger)
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { defineJobKind, type Lease, NO_RETRY } from '../../db/jobs/kind.js';
import type { Database } from '../../db/schema.js';

export const SCHEDULE_FIRE_JOB = 'schedule.fire';
const LEASE_MS = 15_000;
const RENEW_MS = 5_000;
const TIMEOUT_MS = 5 * 60_000;

export type ScheduleJobSettings = Pick<Config, 'schedulerConcurrency' | 'schedulerPollMs' | 'schedulerBatch'>;

export function scheduleFireJob(config: ScheduleJobSettings) {
  return defineJobKind({
    name: SCHEDULE_FIRE_JOB,
    table: 'schedules',
    due: (eb, now) =>
      eb.and([
        eb('enabled', '=', 1),
        eb('next_fire_at', '<=', now),
        eb('macro_id', 'is not', null),
        eb.or([eb('device_id', 'is not', null), eb('group_id', 'is not', null)]),
      ]),
    order: 'next_fire_at',
    payload: readHeldSchedule,
    batchSize: config.schedulerBatch,
    payloads: readHeldSchedules,
    leaseMs: LEASE_MS,
    renewEveryMs: RENEW_MS,
    timeoutMs: TIMEOUT_MS,
    retry: NO_RETRY,
    onLapse: 'retry',
    concurrency: config.schedulerConcurrency,
    pollMs: config.schedulerPollMs,
  });
}

export type ScheduleFireJob = ReturnType<typeof scheduleFireJob>;

/** The schedule while `lease` holds it, still enabled and pointing at a macro. */
async function readHeldSchedule(db: Kysely<Database>, lease: Lease) {
  return (await readHeldSchedules(db, [lease])).get(lease.id);
}

/** `readHeldSchedule` for a batch, in one read. */
async function readHeldSchedules(db: Kysely<Database>, leases: Lease[]) {
  const rows = await db
    .selectFrom('schedules')
    .selectAll()
    .where(
      'id',
      'in',
      leases.map((lease) => lease.id),
    )
    .where('enabled', '=', 1)
    .where('macro_id', 'is not', null)
    .where('next_fire_at', 'is not', null)
    .execute();
  const tokens = new Map(leases.map((lease) => [lease.id, lease.token]));
  return new Map(rows.filter((row) => row.locked_by === tokens.get(row.id)).map((row) => [row.id, row]));
}
