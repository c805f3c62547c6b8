// Stopping a cloud run, and reading one. A stop only marks the run `stopping` and wakes the
// workers; the worker that holds the run aborts it (SIGTERM to its process group, SIGKILL
// 5 s later) and ends it `stopped` in the one end-of-run transaction (run-transitions.ts).
import type { ExpressionBuilder } from 'kysely';
import type { ServiceContext } from '../../../core/context.js';
import { NotFoundError } from '../../../core/errors.js';
import type { Db } from '../../../db/database.js';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../../lib/clock.js';
import { CLOUD_RUN_STOP } from '../job/run-job.js';
import { type CloudRunRecord, presentCloudRun } from './present.js';
import { CLOUD_EXECUTION_ID, type CloudRunRefInput } from './schemas.js';

export interface StopDeps {
  db: Db;
  clock: Clock;
}

const STOPPABLE = ['launching', 'running'] as const;

const notFound = () => new NotFoundError('No cloud run with this id.');

/**
 * The condition naming the run: by `id`, or by `execution_id` (unique, so indexed). A string
 * of any other form names no run; the routes refuse it before, other callers get the 404.
 */
function byRef(ref: CloudRunRefInput) {
  if (typeof ref === 'string' && !CLOUD_EXECUTION_ID.test(ref)) throw notFound();
  return (eb: ExpressionBuilder<Database, 'cloud_runs'>) => (typeof ref === 'number' ? eb('id', '=', ref) : eb('execution_id', '=', ref));
}

/** The caller's run, by id or execution_id; 404 when it is not theirs. */
export async function getRun(deps: StopDeps, ctx: ServiceContext, ref: CloudRunRefInput): Promise<CloudRunRecord> {
  const row = await deps.db.kysely.selectFrom('cloud_runs').selectAll().where(byRef(ref)).where('user_id', '=', ctx.userId).executeTakeFirst();
  if (!row) throw notFound();
  return presentCloudRun(row);
}

export async function runStates(deps: StopDeps, ctx: ServiceContext, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await deps.db.kysely.selectFrom('cloud_runs').select(['id', 'state']).where('id', 'in', ids).where('user_id', '=', ctx.userId).execute();
  return new Map(rows.map((row) => [row.id, row.state]));
}

/** `stopping` (202) when the run was active; the record as it is (200) when it has already ended. */
export async function stopRun(deps: StopDeps, ctx: ServiceContext, ref: CloudRunRefInput): Promise<{ status: 200 | 202; run: CloudRunRecord }> {
  const { db, clock } = deps;
  const named = byRef(ref);
  return db.kysely.transaction().execute(async (trx) => {
    const now = clock.now();
    const stopped = await trx
      .updateTable('cloud_runs')
      .set({ state: 'stopping', updated_at: now })
      .where(named)
      .where('user_id', '=', ctx.userId)
      .where('state', 'in', STOPPABLE)
      .returningAll()
      .executeTakeFirst();
    if (stopped) {
      await db.wakeup.notify(trx, CLOUD_RUN_STOP);
      return { status: 202, run: presentCloudRun(stopped) };
    }
    const row = await trx.selectFrom('cloud_runs').selectAll().where(named).where('user_id', '=', ctx.userId).executeTakeFirst();
    if (!row) throw notFound();
    return { status: row.state === 'stopping' ? 202 : 200, run: presentCloudRun(row) };
  });
}

/**
 * For the device lifecycle (stop, delete): stops the device's active run, if any, and waits
 * until it has ended, at most `timeoutMs`. `reason` becomes the run's `state_message`.
 */
export async function stopActiveRunOnDevice(deps: StopDeps, deviceId: number, reason: string, timeoutMs = 20_000): Promise<void> {
  const { db, clock } = deps;
  const marked = await db.kysely.transaction().execute(async (trx) => {
    const now = clock.now();
    const rows = await trx
      .updateTable('cloud_runs')
      .set({ state: 'stopping', state_message: reason, updated_at: now })
      .where('device_id', '=', deviceId)
      .where('state', 'in', STOPPABLE)
      .returning('id')
      .execute();
    if (rows.length > 0) await db.wakeup.notify(trx, CLOUD_RUN_STOP);
    return rows.length;
  });
  const deadline = Date.now() + timeoutMs;
  const active = async () =>
    (await db.kysely.selectFrom('cloud_runs').select('id').where('device_id', '=', deviceId).where('state', 'in', [...STOPPABLE, 'stopping']).executeTakeFirst()) !== undefined;
  if (marked === 0 && !(await active())) return;
  while (Date.now() < deadline && (await active())) await new Promise((resolve) => setTimeout(resolve, 100));
}
