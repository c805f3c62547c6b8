// One pass over a due schedule (decisions.md §14), run by whichever worker claimed it:
// - the fire times from next_fire_at up to now: after downtime only the newest still runs,
//   and only when younger than SCHEDULE_MISFIRE_GRACE_S; the earlier ones are `missed`;
// - the target devices, taken now (a group fans out over its cloud devices at fire time);
// - per device, one occurrence inserted-or-nothing on (schedule, fire time, device), `pending`:
//   the run starts are the start job's (start-job.ts), so a fire time of 10,000 schedules is
//   recorded in seconds however long its runs take to start; the unique key leaves one row per
//   fire time and device whichever workers race, and the start job starts each row once;
// - five failed runs in a row disable the schedule (`failing`) instead of recording a sixth;
// - the next fire time, written only while this pass still holds the schedule's lease.
import { type Kysely, sql } from 'kysely';
import type { Config } from '../../config.js';
import type { ServiceContext } from '../../core/context.js';
import { ACTIVE_RUN_STATES } from '../../core/values.js';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { completeJob } from '../../db/jobs/leases.js';
import type { JobLog, RunningJob } from '../../db/jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import type { ScheduleFireJob } from './fire-job.js';
import { FireTimes } from './fire-times.js';
import type { ScheduleRuns, ScheduleTargets } from './ports.js';
import type { ScheduleRow } from './present.js';
import { ownerContext } from './start-occurrence.js';

/** At most this many missed fire times are recorded per pass (older ones of a long outage are not listed one by one). */
export const MAX_MISSED_RECORDED = 1000;
/** Runs that must all have failed, in a row, to disable a schedule. */
export const FAILURE_STREAK = 5;
const INSERT_CHUNK = 500;

export interface FirePassDeps {
  db: Db;
  clock: Clock;
  log: JobLog;
  kind: ScheduleFireJob;
  config: Pick<Config, 'scheduleMisfireGraceMs'>;
  targets: ScheduleTargets;
  runs: ScheduleRuns;
  /** Called when a pass recorded occurrences to start: wakes this process's start worker. */
  onRecorded?: () => void;
}

export async function firePass(deps: FirePassDeps, job: RunningJob<ScheduleRow>): Promise<void> {
  const { db, clock } = deps;
  const schedule = job.payload;
  const now = clock.now();
  const rule = new FireTimes(schedule);
  const first = schedule.next_fire_at as number;
  const { times } = rule.between(first - 1, Math.max(now, first), MAX_MISSED_RECORDED + 1);
  if (times.length === 0) times.push(first);
  const latest = times[times.length - 1] as number;
  const runs = now - latest < deps.config.scheduleMisfireGraceMs;
  const ctx = ownerContext(schedule.user_id, schedule.id, latest);

  if (runs && (await failingStreak(deps, ctx, schedule))) {
    await completeJob(db.kysely, deps.kind, job.lease, clock.now(), { enabled: 0, disabled_reason: 'failing', updated_at: clock.now() });
    deps.log.warn({ schedule: schedule.id }, 'schedule disabled: its last five runs failed');
    return;
  }
  const devices = await targetDevices(deps, ctx, schedule);
  const missed = times.slice(0, -1).map((at) => ({ at, reason: 'missed_downtime' }));
  if (!runs) missed.push({ at: latest, reason: 'past_grace' });
  if (runs && job.signal.aborted) return; // the lease is lost: the next holder goes on from here
  // What the pass writes commits together, without waiting for the disk on PostgreSQL: a
  // crash that loses the last moments of commits only makes the pass due again, and the
  // repeat records the same rows (insert-or-nothing). With thousands of schedules firing at
  // once, a flush per write was what limited recording (bench/scheduler.js). Anything that
  // starts a run commits durably later, in the start job, and that commit flushes this one.
  const toStart = await db.kysely.transaction().execute(async (trx) => {
    if (db.dialect === 'postgres') await sql`set local synchronous_commit = off`.execute(trx);
    await recordMissed(trx, schedule.id, missed, devices, now);
    const recorded = runs ? await recordFireTime(trx, schedule.id, latest, devices, clock.now()) : false;
    const done = clock.now();
    await completeJob(trx, deps.kind, job.lease, done, {
      next_fire_at: rule.next(Math.max(now, latest)),
      ...(runs ? { last_fire_at: latest } : {}),
      updated_at: done,
    });
    return recorded;
  });
  if (toStart) deps.onRecorded?.();
}

/** A device schedule's device, or a group's cloud devices now; [0] stands for "the group had none". */
async function targetDevices(deps: FirePassDeps, ctx: ServiceContext, schedule: ScheduleRow): Promise<number[]> {
  if (schedule.device_id !== null) return [schedule.device_id];
  const devices = await deps.targets.groupDevices(ctx, schedule.group_id as number);
  return devices.length > 0 ? devices : [0];
}

async function recordMissed(trx: Kysely<Database>, scheduleId: number, missed: { at: number; reason: string }[], devices: number[], now: number): Promise<void> {
  const rows = missed.flatMap(({ at, reason }) =>
    devices.map((deviceId) => ({ schedule_id: scheduleId, fire_at: at, device_id: deviceId, outcome: 'missed' as const, reason, execution_id: null, run_id: null, created_at: now, updated_at: now })),
  );
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await trx
      .insertInto('schedule_occurrences')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) => oc.columns(['schedule_id', 'fire_at', 'device_id']).doNothing())
      .execute();
  }
}

/**
 * The fire time's occurrences, one per device, waiting for the start job: one statement per
 * 500 devices, and no database notification (with thousands of schedules firing together,
 * each pass's NOTIFY serialised the commits). This process's start worker is woken
 * directly (`onRecorded`); the others find the rows at their next poll (SCHEDULER_POLL_MS).
 */
async function recordFireTime(trx: Kysely<Database>, scheduleId: number, fireAt: number, devices: number[], now: number): Promise<boolean> {
  const rows = devices.map((deviceId) => ({
    schedule_id: scheduleId,
    fire_at: fireAt,
    device_id: deviceId,
    // A group that had no cloud device at fire time: one occurrence says so, with nothing to start.
    outcome: deviceId === 0 ? ('skipped' as const) : ('pending' as const),
    reason: deviceId === 0 ? 'group_empty' : null,
    execution_id: null,
    run_id: null,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await trx
      .insertInto('schedule_occurrences')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) => oc.columns(['schedule_id', 'fire_at', 'device_id']).doNothing())
      .execute();
  }
  return rows.some((row) => row.outcome === 'pending');
}

/** The last FAILURE_STREAK ended runs this schedule started (since a person last enabled it) all failed. */
async function failingStreak(deps: FirePassDeps, ctx: ServiceContext, schedule: ScheduleRow): Promise<boolean> {
  const recent = await deps.db.kysely
    .selectFrom('schedule_occurrences')
    .select('run_id')
    .where('schedule_id', '=', schedule.id)
    .where('outcome', '=', 'started')
    .where('created_at', '>=', schedule.streak_from)
    .orderBy('fire_at', 'desc')
    .orderBy('id', 'desc')
    .limit(FAILURE_STREAK * 2)
    .execute();
  if (recent.length < FAILURE_STREAK) return false;
  const ended: string[] = [];
  for (const { run_id } of recent) {
    if (run_id === null) continue;
    const state = await deps.runs.state(ctx, run_id);
    if (state === null || (ACTIVE_RUN_STATES as readonly string[]).includes(state)) continue;
    ended.push(state);
    if (ended.length === FAILURE_STREAK) break;
  }
  return ended.length === FAILURE_STREAK && ended.every((state) => state === 'failed');
}
