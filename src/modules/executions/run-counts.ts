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

/** The user's number of runs, of one status or of all. */
export async function storedRunCount(db: Kysely<Database>, userId: number, status?: RunStatus): Promise<number> {
  let query = db.selectFrom('run_counts').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), sql<number>`0`).as('total')).where('user_id', '=', userId);
  if (status !== undefined) query = query.where('status', '=', status);
  const { total } = await query.executeTakeFirstOrThrow();
  return Number(total);
}
