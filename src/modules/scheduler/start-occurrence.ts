// Starting the run of one recorded occurrence (the start job, start-job.ts): through the
// cloud-run service, the route's own front door; a refusal is recorded as `skipped` with its
// code (`device_busy`, `not_found` for a macro deleted since the fire time, …). The result is
// written whether or not the lease still holds: if the lease lapsed and recovery already wrote
// `worker_lost`, the run did in fact start (or was refused), and what happened wins.
import { type ServiceContext, workerContext } from '../../core/context.js';
import { AppError, NotFoundError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
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

export async function startOccurrence(deps: StartOccurrenceDeps, job: RunningJob<HeldOccurrence>): Promise<void> {
  const occurrence = job.payload;
  const ctx = ownerContext(occurrence.user_id, occurrence.schedule_id, occurrence.fire_at);
  let result: Settled;
  try {
    // The schedule lost its macro (deleted) after the fire time: nothing to run.
    if (occurrence.macro_id === null) throw new NotFoundError('The macro was deleted.');
    const args = occurrence.args === null ? undefined : (JSON.parse(occurrence.args) as Record<string, unknown>);
    const run = await deps.runs.start(ctx, { device_id: occurrence.device_id, macro_id: occurrence.macro_id, ...(args ? { args } : {}) });
    result = { outcome: 'started', reason: null, execution_id: run.execution_id, run_id: run.id };
  } catch (error) {
    if (!(error instanceof AppError)) deps.log.error({ err: error, schedule: occurrence.schedule_id, device: occurrence.device_id }, 'a scheduled run could not be started');
    result = { outcome: 'skipped', reason: error instanceof AppError ? error.code : 'start_failed', execution_id: null, run_id: null };
  }
  await settle(deps.db, occurrence.id, deps.clock.now(), result);
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

async function settle(db: Db, occurrenceId: number, now: number, result: Settled): Promise<void> {
  await db.kysely
    .updateTable('schedule_occurrences')
    .set({ ...result, locked_until: null, locked_by: null, updated_at: now })
    .where('id', '=', occurrenceId)
    .where((eb) => eb.or([eb('outcome', '=', 'pending'), eb.and([eb('outcome', '=', 'skipped'), eb('reason', '=', 'worker_lost')])]))
    .execute();
}
