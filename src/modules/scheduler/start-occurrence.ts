// Starting the runs of recorded occurrences (the start job, start-job.ts), a batch at a time,
// through the cloud-run service's batched start, which answers each as the route's own front
// door would. Each outcome is written in the transaction that starts its run: `started` with
// its run, or `skipped` with the refusal's code (`device_busy`, `not_found` for a macro deleted
// since the fire time, …). So an occurrence still `pending` has no run, whatever happened to
// the worker that held it: when its lease lapses it is simply claimed again, and started once.
// The write holds only while this worker's lease does; when another worker has taken the
// occurrence meanwhile, the write refuses and its run is undone with it, so no fire time
// starts two runs. An occurrence that waited past SCHEDULE_MISFIRE_GRACE_S (every worker
// down) is `missed`, `past_grace`, as the fire pass records a fire time found that late.
import { type Kysely, sql } from 'kysely';
import type { Config } from '../../config.js';
import { type ServiceContext, workerContext } from '../../core/context.js';
import { AppError, NotFoundError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { JobLog, RunningJob } from '../../db/jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import type { ScheduleRuns } from './ports.js';
import type { HeldOccurrence } from './start-job.js';

export interface StartOccurrenceDeps {
  db: Db;
  clock: Clock;
  log: JobLog;
  runs: ScheduleRuns;
  config: Pick<Config, 'scheduleMisfireGraceMs'>;
}

/** The owner's context for the work a schedule does on their behalf at one fire time. */
export function ownerContext(userId: number, scheduleId: number, fireAt: number): ServiceContext {
  return workerContext(userId, `schedule:${scheduleId}:${fireAt}`);
}

type Settled = { outcome: 'started' | 'skipped' | 'missed'; reason: string | null; execution_id: string | null; run_id: number | null };

/** The held occurrence's row, its lease and what it ended as. */
interface Outcome {
  id: number;
  token: string;
  result: Settled;
}

class LeaseLostError extends Error {
  constructor() {
    super('another worker holds this occurrence now: its run is not started here');
  }
}

/** A batch of held occurrences: their runs started together, each outcome written with its run. */
export async function startOccurrences(deps: StartOccurrenceDeps, jobs: RunningJob<HeldOccurrence>[]): Promise<void> {
  const now = deps.clock.now();
  const early: Outcome[] = [];
  const startable = jobs.filter(({ payload, lease }) => {
    const outcome = (result: Settled) => early.push({ id: payload.id, token: lease.token, result });
    if (now - payload.fire_at >= deps.config.scheduleMisfireGraceMs) outcome({ outcome: 'missed', reason: 'past_grace', execution_id: null, run_id: null });
    // The schedule lost its macro (deleted) after the fire time: nothing to run.
    else if (payload.macro_id === null) outcome(refused(deps, payload, new NotFoundError('The macro was deleted.')));
    else return true;
    return false;
  });
  if (early.length > 0) await deps.db.kysely.transaction().execute((trx) => settle(trx, deps.clock.now(), early));
  if (startable.length === 0) return;
  await deps.runs.startMany(
    startable.map(({ payload }) => ({
      ctx: ownerContext(payload.user_id, payload.schedule_id, payload.fire_at),
      input: { device_id: payload.device_id, macro_id: payload.macro_id as number, ...(payload.args === null ? {} : { args: JSON.parse(payload.args) as Record<string, unknown> }) },
    })),
    (trx, answers) =>
      settle(
        trx,
        deps.clock.now(),
        answers.map(({ index, answer }) => {
          const { payload, lease } = startable[index]!;
          const result: Settled = 'run' in answer ? { outcome: 'started', reason: null, execution_id: answer.run.execution_id, run_id: answer.run.id } : refused(deps, payload, answer.error);
          return { id: payload.id, token: lease.token, result };
        }),
      ),
  );
}

function refused(deps: StartOccurrenceDeps, occurrence: HeldOccurrence, error: unknown): Settled {
  if (error instanceof LeaseLostError) return { outcome: 'skipped', reason: 'lease_lost', execution_id: null, run_id: null };
  if (!(error instanceof AppError)) deps.log.error({ err: error, schedule: occurrence.schedule_id, device: occurrence.device_id }, 'a scheduled run could not be started');
  return { outcome: 'skipped', reason: error instanceof AppError ? error.code : 'start_failed', execution_id: null, run_id: null };
}

/**
 * Outcomes in one statement, each only while its lease still holds the occurrence: an update
 * from a list of (id, lease, outcome, reason, execution id, run id) rows, written as a UNION ALL
 * of selects, which both engines read (the casts give PostgreSQL the columns' types where a
 * value is null; SQLite's RETURNING names no table, hence `occurrence_id`). A `started` outcome whose lease is gone throws, undoing its run.
 */
async function settle(db: Kysely<Database>, now: number, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = outcomes.map(
    ({ id, token, result: r }) =>
      sql`select cast(${id} as bigint) as occurrence_id, cast(${token} as text) as token, cast(${r.outcome} as text) as outcome, cast(${r.reason} as text) as reason, cast(${r.execution_id} as text) as execution_id, cast(${r.run_id} as bigint) as run_id`,
  );
  const written = await sql<{ id: number }>`update schedule_occurrences as o
    set outcome = v.outcome, reason = v.reason, execution_id = v.execution_id, run_id = v.run_id, locked_until = null, locked_by = null, updated_at = ${now}
    from (${sql.join(rows, sql` union all `)}) as v
    where o.id = v.occurrence_id and o.locked_by = v.token and o.outcome = 'pending'
    returning id`.execute(db);
  const kept = new Set(written.rows.map((row) => Number(row.id)));
  if (outcomes.some(({ id, result }) => result.outcome === 'started' && !kept.has(id))) throw new LeaseLostError();
}
