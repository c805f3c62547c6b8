// Exact per-user, per-status run counts (table run_counts), moved in the transaction of the
// change to run history so they are right at every moment. A count is the sum of up to
// RUN_COUNT_SHARDS rows and a change moves one of them at random, so an account's runs starting
// at the same moment do not queue behind one row's lock (migration 0020).
import { randomInt } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, RunStatus } from '../../db/schema.js';

export const RUN_COUNT_SHARDS = 16;

export async function countRun(trx: Transaction<Database>, userId: number, status: RunStatus, delta: 1 | -1): Promise<void> {
  const shard = randomInt(RUN_COUNT_SHARDS);
  await trx
    .insertInto('run_counts')
    .values({ user_id: userId, status, shard, n: delta })
    .onConflict((oc) => oc.columns(['user_id', 'status', 'shard']).doUpdateSet({ n: sql`run_counts.n + ${delta}` }))
    .execute();
}

/**
 * `countRun` (+1) for many runs in one statement: one row per user and status, with its total,
 * each on one random shard (a statement may not change the same row twice).
 */
export async function countRuns(trx: Transaction<Database>, runs: { userId: number; status: RunStatus }[]): Promise<void> {
  const totals = new Map<string, { user_id: number; status: RunStatus; n: number }>();
  for (const run of runs) {
    const key = `${run.userId}:${run.status}`;
    const row = totals.get(key) ?? { user_id: run.userId, status: run.status, n: 0 };
    row.n += 1;
    totals.set(key, row);
  }
  if (totals.size === 0) return;
  // In (user, status) order: two batches that share owners lock their counters in the same order, never crosswise.
  const rows = [...totals.values()].sort((a, b) => a.user_id - b.user_id || a.status.localeCompare(b.status));
  await trx
    .insertInto('run_counts')
    .values(rows.map((row) => ({ ...row, shard: randomInt(RUN_COUNT_SHARDS) })))
    .onConflict((oc) => oc.columns(['user_id', 'status', 'shard']).doUpdateSet({ n: sql`run_counts.n + excluded.n` }))
    .execute();
}

/** The user's number of runs, of one status or of all. */
export async function storedRunCount(db: Kysely<Database>, userId: number, status?: RunStatus): Promise<number> {
  let query = db.selectFrom('run_counts').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), sql<number>`0`).as('total')).where('user_id', '=', userId);
  if (status !== undefined) query = query.where('status', '=', status);
  const { total } = await query.executeTakeFirstOrThrow();
  return Number(total);
}
