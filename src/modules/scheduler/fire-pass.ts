// One pass over a due schedule (decisions.md §14), run by whichever worker claimed it:
// - the fire times from next_fire_at up to now: after downtime only the newest still runs,
//   and only when younger than SCHEDULE_MISFIRE_GRACE_S; the earlier ones are `missed`;
// - the target devices, taken now (a group fans out over its cloud devices at fire time);
// - per device, one occurrence inserted-or-nothing on (schedule, fire time, device): only the
//   worker whose insert made the row starts the run, so two workers never both start it;
// - the run starts through the cloud-run service, the route's own front door; a refusal is
//   recorded as `skipped` with its code (`device_busy`, …);
// - five failed runs in a row disable the schedule (`failing`) instead of starting a sixth;
// - the next fire time, written only while this pass still holds the schedule's lease.
import type { Config } from '../../config.js';
import type { ServiceContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { completeJob } from '../../db/jobs/leases.js';
import type { JobLog, RunningJob } from '../../db/jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import type { ScheduleFireJob } from './fire-job.js';
import { FireTimes } from './fire-times.js';
import type { ScheduleRuns, ScheduleTargets } from './ports.js';
import type { ScheduleRow } from './present.js';

/** At most this many missed fire times are recorded per pass (older ones of a long outage are not listed one by one). */
export const MAX_MISSED_RECORDED = 1000;
/** Runs that must all have failed, in a row, to disable a schedule. */
export const FAILURE_STREAK = 5;
const ACTIVE_RUN_STATES = new Set(['launching', 'running', 'stopping']);
const INSERT_CHUNK = 500;

export interface FirePassDeps {
  db: Db;
  clock: Clock;
  log: JobLog;
  kind: ScheduleFireJob;
  config: Pick<Config, 'scheduleMisfireGraceMs'>;
  targets: ScheduleTargets;
  runs: ScheduleRuns;
}

/** The owner's context for the work a schedule does on their behalf. */
function ownerContext(schedule: ScheduleRow, fireAt: number): ServiceContext {
  return { userId: schedule.user_id, keyId: null, sessionId: null, scopes: [], requestId: `schedule:${schedule.id}:${fireAt}`, clientAddress: null };
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
  const ctx = ownerContext(schedule, latest);

  await endLostStarts(db, schedule.id, now);
  if (runs && (await failingStreak(deps, ctx, schedule))) {
    await completeJob(db.kysely, deps.kind, job.lease, clock.now(), { enabled: 0, disabled_reason: 'failing', updated_at: clock.now() });
    deps.log.warn({ schedule: schedule.id }, 'schedule disabled: its last five runs failed');
    return;
  }
  const devices = await targetDevices(deps, ctx, schedule);
  const missed = times.slice(0, -1).map((at) => ({ at, reason: 'missed_downtime' }));
  if (!runs) missed.push({ at: latest, reason: 'past_grace' });
  await recordMissed(db, schedule.id, missed, devices, now);
  if (runs) {
    for (const deviceId of devices) {
      if (job.signal.aborted) return; // the lease is lost: the next holder goes on from here
      await fireOnDevice(deps, ctx, schedule, latest, deviceId);
    }
  }
  const done = clock.now();
  await completeJob(db.kysely, deps.kind, job.lease, done, {
    next_fire_at: rule.next(Math.max(now, latest)),
    ...(runs ? { last_fire_at: latest } : {}),
    updated_at: done,
  });
}

/** A device schedule's device, or a group's cloud devices now; [0] stands for "the group had none". */
async function targetDevices(deps: FirePassDeps, ctx: ServiceContext, schedule: ScheduleRow): Promise<number[]> {
  if (schedule.device_id !== null) return [schedule.device_id];
  const devices = await deps.targets.groupDevices(ctx, schedule.group_id as number);
  return devices.length > 0 ? devices : [0];
}

/**
 * This pass holds the schedule's lease, so a `pending` occurrence was left by an earlier pass
 * that lost it between claiming the occurrence and recording its run. It is never started
 * again; if that pass is still alive and its run did start, its own write wins (`settle`).
 */
async function endLostStarts(db: Db, scheduleId: number, now: number): Promise<void> {
  await db.kysely
    .updateTable('schedule_occurrences')
    .set({ outcome: 'skipped', reason: 'worker_lost', updated_at: now })
    .where('schedule_id', '=', scheduleId)
    .where('outcome', '=', 'pending')
    .execute();
}

async function recordMissed(db: Db, scheduleId: number, missed: { at: number; reason: string }[], devices: number[], now: number): Promise<void> {
  const rows = missed.flatMap(({ at, reason }) =>
    devices.map((deviceId) => ({ schedule_id: scheduleId, fire_at: at, device_id: deviceId, outcome: 'missed' as const, reason, execution_id: null, run_id: null, created_at: now, updated_at: now })),
  );
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db.kysely
      .insertInto('schedule_occurrences')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) => oc.columns(['schedule_id', 'fire_at', 'device_id']).doNothing())
      .execute();
  }
}

async function fireOnDevice(deps: FirePassDeps, ctx: ServiceContext, schedule: ScheduleRow, fireAt: number, deviceId: number): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  const claimed = await db.kysely
    .insertInto('schedule_occurrences')
    .values({
      schedule_id: schedule.id,
      fire_at: fireAt,
      device_id: deviceId,
      outcome: deviceId === 0 ? 'skipped' : 'pending',
      reason: deviceId === 0 ? 'group_empty' : null,
      execution_id: null,
      run_id: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['schedule_id', 'fire_at', 'device_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  // Another worker's insert made this occurrence: it is theirs to start.
  if (!claimed || deviceId === 0) return;
  try {
    const args = schedule.args === null ? undefined : (JSON.parse(schedule.args) as Record<string, unknown>);
    const run = await deps.runs.start(ctx, { deviceId, macroId: schedule.macro_id as number, ...(args ? { args } : {}) });
    await settle(db, claimed.id, clock.now(), { outcome: 'started', reason: null, execution_id: run.execution_id, run_id: run.id });
  } catch (error) {
    if (!(error instanceof AppError)) deps.log.error({ err: error, schedule: schedule.id, device: deviceId }, 'a scheduled run could not be started');
    await settle(db, claimed.id, clock.now(), { outcome: 'skipped', reason: error instanceof AppError ? error.code : 'start_failed', execution_id: null, run_id: null });
  }
}

type Settled = { outcome: 'started' | 'skipped'; reason: string | null; execution_id: string | null; run_id: number | null };

/** Records what starting the run did; over a `worker_lost` mark too, since that pass did not in fact die. */
async function settle(db: Db, occurrenceId: number, now: number, result: Settled): Promise<void> {
  await db.kysely
    .updateTable('schedule_occurrences')
    .set({ ...result, updated_at: now })
    .where('id', '=', occurrenceId)
    .where((eb) => eb.or([eb('outcome', '=', 'pending'), eb.and([eb('outcome', '=', 'skipped'), eb('reason', '=', 'worker_lost')])]))
    .execute();
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
    if (state === null || ACTIVE_RUN_STATES.has(state)) continue;
    ended.push(state);
    if (ended.length === FAILURE_STREAK) break;
  }
  return ended.length === FAILURE_STREAK && ended.every((state) => state === 'failed');
}
