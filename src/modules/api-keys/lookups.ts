// What other modules need to know of API keys, read here by the table's owner (issue 34 §2):
// the SHA-256 a key is resolved by, for the tool server's tokens minted from it (whether the
// key still holds is the key gate's to say, through its cache and revocation epoch).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The stored SHA-256 of key `keyId`, or undefined when there is no such key. */
export async function keyHashOf(db: Kysely<Database>, keyId: number): Promise<string | undefined> {
  const row = await db.selectFrom('api_keys').select('key_hash').where('id', '=', keyId).executeTakeFirst();
  return row?.key_hash;
}
