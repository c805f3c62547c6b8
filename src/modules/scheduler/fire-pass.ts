// One pass over a batch of due schedules (decisions.md §14), run by whichever worker claimed
// them. For each schedule:
// - the fire times from next_fire_at up to now: after downtime only the newest still runs,
//   and only when younger than SCHEDULE_MISFIRE_GRACE_S; the earlier ones are `missed`;
// - the target devices, taken now (a group fans out over its cloud devices at fire time);
// - per device, one occurrence inserted-or-nothing on (schedule, fire time, device), `pending`:
//   the run starts are the start job's (start-job.ts), so a fire time of 10,000 schedules is
//   recorded in seconds however long its runs take to start; the unique key leaves one row per
//   fire time and device whichever workers race, and the start job starts each row once;
// - five failed runs in a row disable the schedule (`failing`) instead of recording a sixth;
// - the next fire time, written only while this pass still holds the schedule's lease.
// The batch's reads are one statement each (its schedules, their recent runs, those runs'
// states) and its writes one transaction: the occurrences of all its schedules, then all their
// next fire times. With 10,000 schedules firing at one minute, statements per schedule were
// what limited recording (bench/scheduler.js). A schedule whose own pass cannot be planned (a
// rule that no longer computes) is left to its lease and does not hold up the others; a batch
// whose write fails is written again one schedule at a time, so one bad row stops only itself.
import { type Insertable, type Kysely, sql } from 'kysely';
import type { Config } from '../../config.js';
import { ACTIVE_RUN_STATES } from '../../core/values.js';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { ScheduleOccurrencesTable } from '../../db/schema-scheduler.js';
import { completeJobs } from '../../db/jobs/leases.js';
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
/** Occurrence rows per insert statement (nine values each, well inside both engines' limits on parameters). */
const INSERT_CHUNK = 500;
const STREAK_READ_CHUNK = 100;

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

type Occurrence = Pick<ScheduleOccurrencesTable, 'schedule_id' | 'fire_at' | 'device_id' | 'outcome' | 'reason'>;

/** What one schedule's pass writes. */
interface Planned {
  job: RunningJob<ScheduleRow>;
  /** The five failed runs in a row: the schedule is disabled and nothing is recorded. */
  failing: boolean;
  occurrences: Occurrence[];
  set: Record<string, string | number | null>;
}

/** The pass's view of one schedule's fire times, before anything is read for it. */
interface FireWindow {
  job: RunningJob<ScheduleRow>;
  rule: FireTimes;
  times: number[];
  latest: number;
  /** The newest fire time is still inside the grace: it runs. */
  runs: boolean;
}

export async function firePasses(deps: FirePassDeps, jobs: RunningJob<ScheduleRow>[]): Promise<void> {
  const now = deps.clock.now();
  const windows = jobs.flatMap((job) => {
    try {
      return [fireWindow(deps, job, now)];
    } catch (error) {
      leftToLease(deps, job, error);
      return [];
    }
  });
  const failing = await failingStreaks(deps, windows.filter((w) => w.runs).map((w) => w.job.payload));
  const plans = await Promise.all(
    windows.map(async (window): Promise<Planned | undefined> => {
      if (failing.has(window.job.payload.id)) return { job: window.job, failing: true, occurrences: [], set: { enabled: 0, disabled_reason: 'failing', updated_at: now } };
      try {
        const devices = await targetDevices(deps, window);
        return { job: window.job, failing: false, occurrences: occurrencesOf(window, devices), set: nextFire(window, now) };
      } catch (error) {
        leftToLease(deps, window.job, error);
        return undefined;
      }
    }),
  );
  const planned = plans.filter((plan): plan is Planned => plan !== undefined);
  // The leases are lost (a pass that outlived them): the next holder goes on from here.
  if (planned.length === 0 || jobs[0]?.signal.aborted) return;
  let written: Planned[] = planned;
  try {
    await write(deps, planned);
  } catch (error) {
    if (planned.length === 1) throw error;
    deps.log.warn({ err: error, schedules: planned.map((p) => p.job.payload.id) }, 'recording a batch of fire times failed; recording them one by one');
    const alone = await Promise.all(
      planned.map((plan) =>
        write(deps, [plan]).then(
          () => plan,
          (failure: unknown) => leftToLease(deps, plan.job, failure),
        ),
      ),
    );
    written = alone.filter((plan): plan is Planned => plan !== undefined);
  }
  for (const plan of written) if (plan.failing) deps.log.warn({ schedule: plan.job.payload.id }, 'schedule disabled: its last five runs failed');
  if (written.some((plan) => plan.occurrences.some((row) => row.outcome === 'pending'))) deps.onRecorded?.();
}

/** A schedule this pass could not fire: its lease stays, and the pass is made again when it lapses. */
function leftToLease(deps: FirePassDeps, job: RunningJob<ScheduleRow>, error: unknown): undefined {
  deps.log.error({ err: error, schedule: job.payload.id }, 'a schedule could not be fired; it is tried again when its lease lapses');
  return undefined;
}

function fireWindow(deps: FirePassDeps, job: RunningJob<ScheduleRow>, now: number): FireWindow {
  const rule = new FireTimes(job.payload);
  const first = job.payload.next_fire_at as number;
  const { times } = rule.between(first - 1, Math.max(now, first), MAX_MISSED_RECORDED + 1);
  if (times.length === 0) times.push(first);
  const latest = times[times.length - 1] as number;
  return { job, rule, times, latest, runs: now - latest < deps.config.scheduleMisfireGraceMs };
}

/** A device schedule's device, or a group's cloud devices now; [0] stands for "the group had none". */
async function targetDevices(deps: FirePassDeps, window: FireWindow): Promise<number[]> {
  const schedule = window.job.payload;
  if (schedule.device_id !== null) return [schedule.device_id];
  const devices = await deps.targets.groups.cloudDeviceIds(ownerContext(schedule.user_id, schedule.id, window.latest), { id: schedule.group_id as number });
  return devices.length > 0 ? devices : [0];
}

/** The missed fire times, then (inside the grace) the newest one per device, waiting for the start job. */
function occurrencesOf(window: FireWindow, devices: number[]): Occurrence[] {
  const schedule_id = window.job.payload.id;
  const missed = window.times.slice(0, -1).map((at) => ({ at, reason: 'missed_downtime' }));
  if (!window.runs) missed.push({ at: window.latest, reason: 'past_grace' });
  const rows: Occurrence[] = missed.flatMap(({ at, reason }) => devices.map((device_id) => ({ schedule_id, fire_at: at, device_id, outcome: 'missed' as const, reason })));
  if (window.runs) {
    for (const device_id of devices) {
      // A group that had no cloud device at fire time: one occurrence says so, with nothing to start.
      rows.push({ schedule_id, fire_at: window.latest, device_id, outcome: device_id === 0 ? 'skipped' : 'pending', reason: device_id === 0 ? 'group_empty' : null });
    }
  }
  return rows;
}

function nextFire(window: FireWindow, now: number): Record<string, number | null> {
  return { next_fire_at: window.rule.next(Math.max(now, window.latest)), ...(window.runs ? { last_fire_at: window.latest } : {}), updated_at: now };
}

/**
 * The batch's occurrences and next fire times, in one transaction that commits without waiting
 * for the disk on PostgreSQL: a crash that loses the last moments of commits only makes the
 * pass due again, and the repeat records the same rows (insert-or-nothing). Anything that
 * starts a run commits durably later, in the start job, and that commit flushes this one. No
 * database notification either (with thousands of schedules firing together, a NOTIFY per
 * pass serialised the commits): this process's start worker is woken directly (`onRecorded`),
 * the others find the rows at their next poll (SCHEDULER_POLL_MS).
 */
async function write(deps: FirePassDeps, planned: Planned[]): Promise<void> {
  const { db, clock } = deps;
  return db.kysely.transaction().execute(async (trx) => {
    if (db.dialect === 'postgres') await sql`set local synchronous_commit = off`.execute(trx);
    const now = clock.now();
    const rows = planned.flatMap((plan) => plan.occurrences).map((row) => ({ ...row, execution_id: null, run_id: null, created_at: now, updated_at: now }));
    await insertOccurrences(trx, rows);
    await completeJobs(
      trx,
      deps.kind,
      planned.map((plan) => ({ lease: plan.job.lease, set: plan.set })),
      clock.now(),
    );
  });
}

async function insertOccurrences(trx: Kysely<Database>, rows: Insertable<ScheduleOccurrencesTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await trx
      .insertInto('schedule_occurrences')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) => oc.columns(['schedule_id', 'fire_at', 'device_id']).doNothing())
      .execute();
  }
}

/**
 * The schedules whose last FAILURE_STREAK ended runs (since a person last enabled them) all
 * failed. One statement reads each schedule's newest started occurrences (twice the streak, as
 * some runs may still be going), one per owner reads those runs' states.
 */
async function failingStreaks(deps: FirePassDeps, schedules: ScheduleRow[]): Promise<Set<number>> {
  const failing = new Set<number>();
  if (schedules.length === 0) return failing;
  const { kysely } = deps.db;
  const recentOf = (schedule: ScheduleRow) =>
    kysely
      .selectFrom((eb) =>
        eb
          .selectFrom('schedule_occurrences')
          .select(['schedule_id', 'run_id', 'fire_at', 'id'])
          .where('schedule_id', '=', schedule.id)
          .where('outcome', '=', 'started')
          .where('created_at', '>=', schedule.streak_from)
          .orderBy('fire_at', 'desc')
          .orderBy('id', 'desc')
          .limit(FAILURE_STREAK * 2)
          .as('recent'),
      )
      .select(['schedule_id', 'run_id', 'fire_at', 'id']);
  const recent = [];
  // One statement per hundred schedules: SQLite allows 500 terms in a compound select.
  for (let i = 0; i < schedules.length; i += STREAK_READ_CHUNK) {
    const [first, ...rest] = schedules.slice(i, i + STREAK_READ_CHUNK) as [ScheduleRow, ...ScheduleRow[]];
    recent.push(...(await rest.reduce((query, schedule) => query.unionAll(recentOf(schedule)), recentOf(first)).execute()));
  }
  const runsOf = new Map<number, typeof recent>();
  for (const row of recent) runsOf.set(row.schedule_id, [...(runsOf.get(row.schedule_id) ?? []), row]);
  const candidates = schedules.filter((schedule) => (runsOf.get(schedule.id)?.length ?? 0) >= FAILURE_STREAK);
  if (candidates.length === 0) return failing;

  const states = new Map<number, string>();
  const owners = new Map<number, { schedule: ScheduleRow; runIds: number[] }>();
  for (const schedule of candidates) {
    const ids = (runsOf.get(schedule.id) ?? []).flatMap((row) => (row.run_id === null ? [] : [row.run_id]));
    const owner = owners.get(schedule.user_id) ?? { schedule, runIds: [] };
    owner.runIds.push(...ids);
    owners.set(schedule.user_id, owner);
  }
  for (const [userId, { schedule, runIds }] of owners) {
    const ctx = ownerContext(userId, schedule.id, schedule.next_fire_at as number);
    for (const [id, state] of await deps.runs.states(ctx, runIds)) states.set(id, state);
  }
  for (const schedule of candidates) {
    const newestFirst = (runsOf.get(schedule.id) ?? []).sort((a, b) => b.fire_at - a.fire_at || b.id - a.id);
    const ended = newestFirst
      .map((row) => (row.run_id === null ? undefined : states.get(row.run_id)))
      .filter((state): state is string => state !== undefined && !(ACTIVE_RUN_STATES as readonly string[]).includes(state))
      .slice(0, FAILURE_STREAK);
    if (ended.length === FAILURE_STREAK && ended.every((state) => state === 'failed')) failing.add(schedule.id);
  }
  return failing;
}
