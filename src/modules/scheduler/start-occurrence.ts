// Starting the runs of recorded occurrences (the start job, start-job.ts), a batch at a time:
// through the cloud-run service's batched start, which answers each as the route's own front
// door would; a refusal is recorded as `skipped` with its
// code (`device_busy`, `not_found` for a macro deleted since the fire time, …). The result is
// written whether or not the lease still holds: if the lease lapsed and recovery already wrote
// `worker_lost`, the run did in fact start (or was refused), and what happened wins.
import { type ServiceContext, workerContext } from '../../core/context.js';
import { AppError, NotFoundError } from '../../core/errors.js';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Lease } from '../../db/jobs/kind.js';
import type { JobLog, RunningJob } from '../../db/jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import type { ScheduleRuns } from './ports.js';
import type { HeldOccurrence } from './start-job.js';

export interface StartOccurrenceDeps {
  db: Db;
  clock: Clock;
  log: JobLog;
  runs: ScheduleRuns;
}

/** The owner's context for the work a schedule does on their behalf at one fire time. */
export function ownerContext(userId: number, scheduleId: number, fireAt: number): ServiceContext {
  return workerContext(userId, `schedule:${scheduleId}:${fireAt}`);
}

/** A batch of held occurrences: their runs started together, their outcomes written in one transaction. */
export async function startOccurrences(deps: StartOccurrenceDeps, jobs: RunningJob<HeldOccurrence>[]): Promise<void> {
  const results = new Map<number, Settled>();
  const startable = jobs.filter(({ payload }) => {
    // The schedule lost its macro (deleted) after the fire time: nothing to run.
    if (payload.macro_id !== null) return true;
    results.set(payload.id, refused(deps, payload, new NotFoundError('The macro was deleted.')));
    return false;
  });
  const answers = await deps.runs.startMany(
    startable.map(({ payload }) => ({
      ctx: ownerContext(payload.user_id, payload.schedule_id, payload.fire_at),
      input: { device_id: payload.device_id, macro_id: payload.macro_id as number, ...(payload.args === null ? {} : { args: JSON.parse(payload.args) as Record<string, unknown> }) },
    })),
  );
  startable.forEach(({ payload }, i) => {
    const answer = answers[i]!;
    results.set(payload.id, 'run' in answer ? { outcome: 'started', reason: null, execution_id: answer.run.execution_id, run_id: answer.run.id } : refused(deps, payload, answer.error));
  });
  await settleAll(deps.db.kysely, deps.clock.now(), results);
}

function refused(deps: StartOccurrenceDeps, occurrence: HeldOccurrence, error: unknown): Settled {
  if (!(error instanceof AppError)) deps.log.error({ err: error, schedule: occurrence.schedule_id, device: occurrence.device_id }, 'a scheduled run could not be started');
  return { outcome: 'skipped', reason: error instanceof AppError ? error.code : 'start_failed', execution_id: null, run_id: null };
}

/** Recovery of a lapsed start: its worker died mid-start, so the run is not started again. */
export async function endLostStart(deps: Pick<StartOccurrenceDeps, 'db' | 'clock'>, lease: Lease): Promise<void> {
  await deps.db.kysely
    .updateTable('schedule_occurrences')
    .set({ outcome: 'skipped', reason: 'worker_lost', locked_until: null, locked_by: null, updated_at: deps.clock.now() })
    .where('id', '=', lease.id)
    .where('locked_by', '=', lease.token)
    .where('outcome', '=', 'pending')
    .execute();
}

type Settled = { outcome: 'started' | 'skipped'; reason: string | null; execution_id: string | null; run_id: number | null };

/** Which rows a result is written to: still waiting, or ended `worker_lost` by recovery while the start went on. */
const SETTLEABLE = sql`(o.outcome = 'pending' or (o.outcome = 'skipped' and o.reason = 'worker_lost'))`;

/**
 * Every result of a batch in one statement: an update from a list of (id, outcome, reason,
 * execution id, run id) rows, written as a UNION ALL of selects, which both engines read (the
 * casts give PostgreSQL the columns' types where a value is null).
 */
async function settleAll(db: Kysely<Database>, now: number, results: Map<number, Settled>): Promise<void> {
  if (results.size === 0) return;
  const rows = [...results].map(
    ([id, r]) => sql`select cast(${id} as bigint) as id, cast(${r.outcome} as text) as outcome, cast(${r.reason} as text) as reason, cast(${r.execution_id} as text) as execution_id, cast(${r.run_id} as bigint) as run_id`,
  );
  await sql`update schedule_occurrences as o
    set outcome = v.outcome, reason = v.reason, execution_id = v.execution_id, run_id = v.run_id, locked_until = null, locked_by = null, updated_at = ${now}
    from (${sql.join(rows, sql` union all `)}) as v
    where o.id = v.id and ${SETTLEABLE}`.execute(db);
}
