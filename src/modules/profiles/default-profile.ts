// Every code macro has a profile named `Default`, created on first need (a read of its
// profiles, or a device starting to follow the macro). Concurrent first reads race on the
// unique (macro_id, name) index; the loser's insert does nothing and both read one row.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

export const DEFAULT_PROFILE_NAME = 'Default';

export async function ensureDefaultProfile(
  db: Kysely<Database> | Transaction<Database>,
  userId: number,
  macroId: number,
  now: number,
): Promise<number> {
  await db
    .insertInto('macro_setting_profiles')
    .values({ user_id: userId, macro_id: macroId, name: DEFAULT_PROFILE_NAME, args: '{}', is_default: 1, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['macro_id', 'name']).doNothing())
    .execute();
  const row = await db
    .selectFrom('macro_setting_profiles')
    .select('id')
    .where('macro_id', '=', macroId)
    .where('name', '=', DEFAULT_PROFILE_NAME)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The macro's `Default` arguments (an empty object before the profile exists). */
export async function readDefaultArgs(db: Kysely<Database> | Transaction<Database>, userId: number, macroId: number): Promise<Record<string, unknown>> {
  const row = await db
    .selectFrom('macro_setting_profiles')
    .select('args')
    .where('user_id', '=', userId)
    .where('macro_id', '=', macroId)
    .where('name', '=', DEFAULT_PROFILE_NAME)
    .executeTakeFirst();
  return row ? (JSON.parse(row.args) as Record<string, unknown>) : {};
}

/** A new macro's `Default` profile holding `args` (an installed copy's arguments). */
export async function createDefaultProfile(db: Transaction<Database>, userId: number, macroId: number, args: Record<string, unknown>, now: number): Promise<void> {
  await db
    .insertInto('macro_setting_profiles')
    .values({ user_id: userId, macro_id: macroId, name: DEFAULT_PROFILE_NAME, args: JSON.stringify(args), is_default: 1, created_at: now, updated_at: now })
    .execute();
}
