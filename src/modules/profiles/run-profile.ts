// The settings profile a run takes its arguments from (decisions.md §10), read here by the
// table's owner (issue 34 §2): the profile the device follows when it belongs to the run's
// macro, else the macro's `Default`. One statement reads both candidates.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface RunProfile {
  profileId: number;
  /** The profile's values (an object; anything else stored reads as none). */
  args: Record<string, unknown>;
}

function parseArgs(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The profile a run of `macroId` takes, for a device following `followedProfileId` (null: none):
 * that profile when it is one of the macro's, else the macro's Default; undefined when the
 * macro has no Default yet (its profiles were never read), which reads as no arguments.
 */
export async function runProfile(
  db: Kysely<Database> | Transaction<Database>,
  input: { userId: number; macroId: number; followedProfileId: number | null },
): Promise<RunProfile | undefined> {
  const { followedProfileId } = input;
  const rows = await db
    .selectFrom('macro_setting_profiles')
    .select(['id', 'args'])
    .where('macro_id', '=', input.macroId)
    .where('user_id', '=', input.userId)
    .where((eb) => (followedProfileId === null ? eb('is_default', '=', 1) : eb.or([eb('id', '=', followedProfileId), eb('is_default', '=', 1)])))
    .execute();
  const row = rows.find((r) => r.id === followedProfileId) ?? rows[0];
  return row && { profileId: row.id, args: parseArgs(row.args) };
}
