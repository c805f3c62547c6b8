// The owner's image library, as far as code sync needs it: which referenced ids it holds.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Ids per query: keeps the IN list well inside both engines' parameter limits. */
const BATCH = 500;

export async function ownedImageIds(db: Kysely<Database>, userId: number, ids: readonly string[]): Promise<Set<string>> {
  const owned = new Set<string>();
  for (let start = 0; start < ids.length; start += BATCH) {
    const rows = await db
      .selectFrom('images')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', 'in', ids.slice(start, start + BATCH))
      .execute();
    for (const row of rows) owned.add(row.id);
  }
  return owned;
}
