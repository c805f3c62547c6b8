// What other modules need to know of accounts, read here by the table's owner (issue 34 §2):
// whether an account exists (the operator's grants name one by id), the operator's search,
// and the names (for the operator also the emails) of a set of accounts, as the marketplace
// shows its authors. Each reads only the columns it answers: a name never brings its email.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { normaliseEmail, presentUser } from './service.js';

export async function accountExists(db: Kysely<Database>, userId: number): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
}

/** Accounts by id, at most `limit`; with `email`, the one with that email (matched as sign-up stores it). */
export async function findAccounts(db: Kysely<Database>, input: { email?: string; limit: number }) {
  let query = db.selectFrom('users').select(['id', 'email', 'name', 'created_at']).orderBy('id').limit(input.limit);
  if (input.email !== undefined) query = query.where('email', '=', normaliseEmail(input.email));
  return (await query.execute()).map(presentUser);
}

/** Ids per statement: well inside both engines' parameter limits. */
const ID_BATCH = 1000;

async function byIds<Row extends { id: number }>(ids: readonly number[], read: (batch: number[]) => Promise<Row[]>): Promise<Map<number, Row>> {
  const unique = [...new Set(ids)];
  const found = new Map<number, Row>();
  for (let start = 0; start < unique.length; start += ID_BATCH) for (const row of await read(unique.slice(start, start + ID_BATCH))) found.set(row.id, row);
  return found;
}

/** The display name (null when none was given) of each of `ids` that is an account; ids that are not are absent. */
export async function accountNames(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, string | null>> {
  const rows = await byIds(ids, (batch) => db.selectFrom('users').select(['id', 'name']).where('id', 'in', batch).execute());
  return new Map([...rows].map(([id, row]) => [id, row.name]));
}

/** The name and email of each of `ids` that is an account, for the operator; ids that are not are absent. */
export async function accountContacts(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, { name: string | null; email: string }>> {
  const rows = await byIds(ids, (batch) => db.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', batch).execute());
  return new Map([...rows].map(([id, row]) => [id, { name: row.name, email: row.email }]));
}
