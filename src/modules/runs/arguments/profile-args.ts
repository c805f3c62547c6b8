// Where a run's arguments come from (decisions.md §10): the settings profile the device
// follows when that profile belongs to the run's macro, else the macro's `Default`, as the
// profiles module answers it. A device following another macro's profile, or none, gets the
// Default; a macro that never had its profiles read has no Default row yet, which reads as no
// arguments.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { runProfile } from '../../profiles/index.js';
import { mergeRunArgs, type RunArgs } from './merge.js';

type Executor = Kysely<Database> | Transaction<Database>;

export interface ArgsSource {
  userId: number;
  macroId: number;
  /** The profile the run's device follows (its `profile_id`); null for none, or no device. */
  followedProfileId: number | null;
}

export interface ProfileArgs {
  /** The profile the values came from; null when the macro has no Default yet. */
  profileId: number | null;
  args: RunArgs;
}

export async function loadProfileArgs(db: Executor, source: ArgsSource): Promise<ProfileArgs> {
  const profile = await runProfile(db, source);
  return profile ? { profileId: profile.profileId, args: profile.args } : { profileId: null, args: {} };
}

/** The profile's values with the run's own `args` laid over them. */
export async function resolveRunArgs(db: Executor, source: ArgsSource, overrides?: RunArgs): Promise<RunArgs> {
  return mergeRunArgs((await loadProfileArgs(db, source)).args, overrides);
}
