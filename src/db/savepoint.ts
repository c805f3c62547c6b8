// A part of a transaction that may fail on its own without failing the rest: what it wrote is
// undone, the error goes to the caller, and the transaction goes on (on PostgreSQL a failed
// statement otherwise aborts every later statement of the transaction). The same SQL on both
// engines; `name` is the caller's constant, never input.
import { sql, type Transaction } from 'kysely';
import type { Database } from './schema.js';

export async function inSavepoint<T>(trx: Transaction<Database>, name: string, work: () => Promise<T>): Promise<T> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`not a savepoint name: ${name}`);
  await sql.raw(`savepoint ${name}`).execute(trx);
  let answer: T;
  try {
    answer = await work();
  } catch (error) {
    await sql.raw(`rollback to savepoint ${name}`).execute(trx);
    await sql.raw(`release savepoint ${name}`).execute(trx);
    throw error;
  }
  await sql.raw(`release savepoint ${name}`).execute(trx);
  return answer;
}
