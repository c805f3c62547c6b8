// What other modules read of a recorded event, read here by the table's owner (issue 34 §2):
// its stored bytes, which a webhook delivery shows as sent.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The payload an event was recorded with (the bytes every delivery of it sends), or undefined when there is no such event. */
export async function eventPayload(db: Kysely<Database>, eventPk: number): Promise<string | undefined> {
  const row = await db.selectFrom('events').select('payload').where('id', '=', eventPk).executeTakeFirst();
  return row?.payload;
}
