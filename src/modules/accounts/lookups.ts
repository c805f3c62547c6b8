// What other modules need to know of accounts, read here by the table's owner (issue 34 §2):
// whether an account exists (the operator's grants name one by id) and the operator's search.
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
