// Where a run's arguments come from (decisions.md §10): the settings profile the device
// follows when that profile belongs to the run's macro, else the macro's `Default`. A
// device following another macro's profile, or none, gets the Default; a macro that never
// had its profiles read has no Default row yet, which reads as no arguments.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { mergeRunArgs, type RunArgs } from './merge.js';

type Executor = Kysely<Database> | Transaction<Database>;

export interface ArgsSource {
  userId: number;
  deviceId: number;
  macroId: number;
}

export interface ProfileArgs {
  /** The profile the values came from; null when the macro has no Default yet. */
  profileId: number | null;
  args: RunArgs;
}

function parseArgs(text: string): RunArgs {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as RunArgs) : {};
}

export async function loadProfileArgs(db: Executor, source: ArgsSource): Promise<ProfileArgs> {
  const followed = await db
    .selectFrom('devices as d')
    .innerJoin('macro_setting_profiles as p', 'p.id', 'd.profile_id')
    .select(['p.id', 'p.args'])
    .where('d.id', '=', source.deviceId)
    .where('d.user_id', '=', source.userId)
    .where('p.macro_id', '=', source.macroId)
    .where('p.user_id', '=', source.userId)
    .executeTakeFirst();
  const profile =
    followed ??
    (await db
      .selectFrom('macro_setting_profiles')
      .select(['id', 'args'])
      .where('macro_id', '=', source.macroId)
      .where('user_id', '=', source.userId)
      .where('is_default', '=', 1)
      .executeTakeFirst());
  return profile ? { profileId: profile.id, args: parseArgs(profile.args) } : { profileId: null, args: {} };
}

/** The profile's values with the run's own `args` laid over them. */
export async function resolveRunArgs(db: Executor, source: ArgsSource, overrides?: RunArgs): Promise<RunArgs> {
  return mergeRunArgs((await loadProfileArgs(db, source)).args, overrides);
}
