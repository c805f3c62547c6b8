// The scheduled run start, side by side (listed with every kind in src/workers.ts):
//   table    schedule_occurrences: an occurrence the fire pass recorded `pending` is a start to make
//   due      outcome `pending`
//   payload  the occurrence and what its schedule runs (owner, macro, arguments) while the claim holds it
//   lease    60 s; a start ends well inside it (the time-out, 30 s, covers asking a device host)
//   timeout  30 s
//   retry    on lapse the occurrence is simply claimed again: its outcome is written in the
//            transaction that starts its run, and only while the writer's lease holds, so one
//            still `pending` has no run, and a worker whose lease lapsed mid-start has its run
//            undone (start-occurrence.ts); no fire time starts twice, none is lost
//   batch    up to SCHEDULER_BATCH (100) occurrences per job: one read, their runs started through
//            the cloud-run service's batched start, their outcomes in one transaction
//            (start-occurrence.ts): at a busy minute, statements per start limited how soon the
//            last run of 10,000 started (bench/scheduler.js)
//   workers  SCHEDULER_CONCURRENCY batches per process; woken when a fire pass of the same process
//            records occurrences, else looking every SCHEDULER_POLL_MS
import type { Kysely } from 'kysely';
import { defineJobKind, type Lease, NO_RETRY } from '../../db/jobs/kind.js';
import type { Database } from '../../db/schema.js';
import type { ScheduleJobSettings } from './fire-job.js';

export const SCHEDULE_START_JOB = 'schedule.start';

export function scheduleStartJob(config: ScheduleJobSettings) {
  return defineJobKind({
    name: SCHEDULE_START_JOB,
    table: 'schedule_occurrences',
    due: (eb) => eb('outcome', '=', 'pending'),
    order: 'fire_at',
    payload: readHeldOccurrence,
    batchSize: config.schedulerBatch,
    payloads: readHeldOccurrences,
    leaseMs: 60_000,
    renewEveryMs: null,
    timeoutMs: 30_000,
    retry: NO_RETRY,
    onLapse: 'retry',
    concurrency: config.schedulerConcurrency,
    pollMs: config.schedulerPollMs,
  });
}

export type ScheduleStartJob = ReturnType<typeof scheduleStartJob>;

export type HeldOccurrence = NonNullable<Awaited<ReturnType<typeof readHeldOccurrence>>>;

/** The occurrence while `lease` holds it and it still waits for its run, with what its schedule runs. */
async function readHeldOccurrence(db: Kysely<Database>, lease: Lease) {
  return (await readHeldOccurrences(db, [lease])).get(lease.id);
}

/** `readHeldOccurrence` for a batch, in one read. */
async function readHeldOccurrences(db: Kysely<Database>, leases: Lease[]) {
  const rows = await db
    .selectFrom('schedule_occurrences as o')
    .innerJoin('schedules as s', 's.id', 'o.schedule_id')
    .select(['o.id', 'o.schedule_id', 'o.fire_at', 'o.device_id', 'o.locked_by', 's.user_id', 's.macro_id', 's.args'])
    .where(
      'o.id',
      'in',
      leases.map((lease) => lease.id),
    )
    .where('o.outcome', '=', 'pending')
    .execute();
  const tokens = new Map(leases.map((lease) => [lease.id, lease.token]));
  return new Map(rows.filter((row) => row.locked_by === tokens.get(row.id)).map(({ locked_by: _held, ...row }) => [row.id, row]));
}
