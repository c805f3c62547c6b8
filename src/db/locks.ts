// Row locks for writers that derive the next value from the rows before them (run-log
// sequence numbers). PostgreSQL locks the row until the transaction ends; SQLite's single
// connection already serialises transactions, so a plain read is enough there.
import type { Transaction } from 'kysely';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';

/** Locks one executions row for the rest of the transaction; false when it does not exist. */
export async function lockExecutionRow(trx: Transaction<Database>, dialect: DialectName, executionPk: number): Promise<boolean> {
  const query = trx.selectFrom('executions').select('id').where('id', '=', executionPk);
  const row = await (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  return row !== undefined;
}
