// What other modules need to know of run history, read here by the table's owner (issue 34
// §2): which record an execution id names (a cloud run's log sink, a custom event's check) and
// how the runs of a set of macros went (the marketplace's trust figures).
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** The primary key of the caller's run history record with this execution id, or undefined. */
export async function historyRecordId(db: Executor, userId: number, executionId: string): Promise<number | undefined> {
  const row = await db.selectFrom('executions').select('id').where('user_id', '=', userId).where('execution_id', '=', executionId).executeTakeFirst();
  return row?.id;
}

/** A macro by its owner, as run history files it (executions_macro_idx leads with the owner). */
export interface OwnedMacro {
  userId: number;
  macroId: number;
}

export interface RunOutcomes {
  /** Runs started since the given time. */
  runs: number;
  /** Of those, the ones that have ended (any status but running). */
  finished: number;
  /** Of those, the ones that completed. */
  completed: number;
}

/** Macros per statement: two parameters each, well inside both engines' limits. */
const OUTCOME_BATCH = 2000;

/** How the runs of `macros` started at or after `since` went, summed over all of them. */
export async function runOutcomesOf(db: Executor, macros: readonly OwnedMacro[], since: number): Promise<RunOutcomes> {
  const total: RunOutcomes = { runs: 0, finished: 0, completed: 0 };
  for (let start = 0; start < macros.length; start += OUTCOME_BATCH) {
    const batch = macros.slice(start, start + OUTCOME_BATCH);
    const row = await db
      .selectFrom('executions')
      .where((eb) => eb(eb.refTuple('user_id', 'macro_id'), 'in', batch.map((m) => eb.tuple(m.userId, m.macroId))))
      .where('started_at', '>=', since)
      .select([
        sql<number | string>`count(*)`.as('runs'),
        sql<number | string | null>`sum(case when status <> 'running' then 1 else 0 end)`.as('finished'),
        sql<number | string | null>`sum(case when status = 'completed' then 1 else 0 end)`.as('completed'),
      ])
      .executeTakeFirstOrThrow();
    total.runs += Number(row.runs);
    total.finished += Number(row.finished ?? 0);
    total.completed += Number(row.completed ?? 0);
  }
  return total;
}
