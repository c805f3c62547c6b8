// Settings profiles: named argument sets of one code macro, which devices follow. Every code
// macro has a `Default` profile (created on first read) that cannot be renamed or deleted;
// deleting any other profile moves its devices to the Default in the same transaction.
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { type DialectName, isUniqueViolation } from '../../db/database.js';
import { lockProfileRow } from '../../db/locks.js';
import type { Database, MacroSettingProfilesTable } from '../../db/schema.js';
import { textSortKey } from '../../db/text.js';
import type { ServiceContext } from '../../core/context.js';
import { BadRequestError, ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { type Clock, toIso } from '../../lib/clock.js';
import { ownedMacroKind } from '../macros/index.js';
import { DEFAULT_PROFILE_NAME, ensureDefaultProfile } from './default-profile.js';
import { ARGS_MAX_BYTES, type CreateProfileInput, type ProfileIdInput, type ProfileListInput, type UpdateProfileInput } from './schemas.js';

type Executor = Kysely<Database> | Transaction<Database>;
type Args = Record<string, unknown>;

/** A profile as selected, with the devices following it counted when read (a string on PostgreSQL). */
type ProfileRow = Omit<Selectable<MacroSettingProfilesTable>, 'user_id'> & { devices_using: number | string };

export function presentProfile(row: ProfileRow) {
  return {
    id: row.id,
    macro_id: row.macro_id,
    name: row.name,
    args: JSON.parse(row.args) as Args,
    is_default: row.is_default === 1,
    devices_using: Number(row.devices_using),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/** `args` as stored; the 64 KB limit is on this JSON text, in bytes. */
function serializeArgs(args: Args): string {
  const json = JSON.stringify(args);
  const bytes = Buffer.byteLength(json);
  if (bytes > ARGS_MAX_BYTES) {
    throw new ValidationError([{ path: 'body.args', message: `must be at most ${ARGS_MAX_BYTES} bytes as JSON (this is ${bytes})` }]);
  }
  return json;
}

const nameTaken = (name: string) =>
  new ConflictError(
    'name_taken',
    name === DEFAULT_PROFILE_NAME
      ? `"${DEFAULT_PROFILE_NAME}" is reserved for the macro's default profile. Choose another name.`
      : `This macro already has a profile named "${name}". Choose another name.`,
  );

const defaultProtected = (action: 'renamed' | 'deleted') =>
  new BadRequestError(
    `The ${DEFAULT_PROFILE_NAME} profile cannot be ${action}${action === 'renamed' ? '; its args can be changed' : ''}.`,
    'default_profile_protected',
  );

/** The caller's code macro, or 404: someone else's macro and a block macro are not found alike. */
async function findOwnedCodeMacro(db: Executor, userId: number, macroId: number): Promise<void> {
  if ((await ownedMacroKind(db, userId, macroId)) !== 'python') throw new NotFoundError('No code macro with this id; settings profiles belong to code (python) macros.');
}

/** Profiles with `devices_using` counted when read, so it is right at every moment. */
function selectProfiles(db: Executor, userId: number) {
  return db
    .selectFrom('macro_setting_profiles as p')
    .where('p.user_id', '=', userId)
    .select(['p.id', 'p.macro_id', 'p.name', 'p.args', 'p.is_default', 'p.created_at', 'p.updated_at'])
    .select(sql<number>`(select count(*) from devices d where d.profile_id = p.id and d.user_id = p.user_id)`.as('devices_using'));
}

async function readProfile(db: Executor, userId: number, profileId: number) {
  const row = await selectProfiles(db, userId).where('p.id', '=', profileId).executeTakeFirst();
  if (!row) throw new NotFoundError('No settings profile with this id.');
  return presentProfile(row);
}

async function findOwnedProfile(db: Executor, userId: number, profileId: number) {
  const row = await db
    .selectFrom('macro_setting_profiles')
    .select(['id', 'macro_id', 'name', 'is_default'])
    .where('id', '=', profileId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('No settings profile with this id.');
  return row;
}

/**
 * The devices module's write that hands a deleted profile's devices to the Default (handed in
 * by build-modules.ts: devices owns that table, and already depends on this module).
 */
export type RepointDevices = (trx: Transaction<Database>, input: { userId: number; from: number; to: number; now: number }) => Promise<void>;

export class ProfileService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
    private readonly repointDevices: RepointDevices,
  ) {}

  /** Default first, then by name (the same order on both engines), then id. */
  async list(ctx: ServiceContext, { macro_id: macroId }: ProfileListInput) {
    const { userId } = ctx;
    await findOwnedCodeMacro(this.db, userId, macroId);
    await ensureDefaultProfile(this.db, userId, macroId, this.clock.now());
    const rows = await selectProfiles(this.db, userId)
      .where('p.macro_id', '=', macroId)
      .orderBy('p.is_default', 'desc')
      .orderBy(textSortKey('p.name', this.dialect))
      .orderBy('p.id')
      .execute();
    return { items: rows.map(presentProfile) };
  }

  async create(ctx: ServiceContext, input: CreateProfileInput) {
    const { userId } = ctx;
    const name = input.name.trim();
    const args = serializeArgs(input.args ?? {});
    const now = this.clock.now();
    try {
      return await this.db.transaction().execute(async (trx) => {
        await findOwnedCodeMacro(trx, userId, input.macro_id);
        // The Default exists first, so the unique (macro_id, name) index refuses "Default"
        // like any other taken name, and of two concurrent creates of one name only one wins.
        await ensureDefaultProfile(trx, userId, input.macro_id, now);
        const { id } = await trx
          .insertInto('macro_setting_profiles')
          .values({ user_id: userId, macro_id: input.macro_id, name, args, is_default: 0, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        return readProfile(trx, userId, id);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(name);
      throw error;
    }
  }

  /** `args` replaces the whole set. The Default keeps its name but its args can change. */
  async update(ctx: ServiceContext, { id: profileId, ...input }: ProfileIdInput & UpdateProfileInput) {
    const { userId } = ctx;
    const name = input.name?.trim();
    const args = input.args === undefined ? undefined : serializeArgs(input.args);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const profile = await findOwnedProfile(trx, userId, profileId);
        if (profile.is_default === 1 && name !== undefined && name !== profile.name) throw defaultProtected('renamed');
        await trx
          .updateTable('macro_setting_profiles')
          .set({ ...(name !== undefined ? { name } : {}), ...(args !== undefined ? { args } : {}), updated_at: this.clock.now() })
          .where('id', '=', profileId)
          .where('user_id', '=', userId)
          .execute();
        return readProfile(trx, userId, profileId);
      });
    } catch (error) {
      if (isUniqueViolation(error) && name !== undefined) throw nameTaken(name);
      throw error;
    }
  }

  /** Its devices follow the macro's Default from then on; both happen or neither. */
  async remove(ctx: ServiceContext, { id: profileId }: ProfileIdInput) {
    const { userId } = ctx;
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      // Lock first: a device being pointed at this profile waits, then finds it gone.
      const profile = await lockProfileRow(trx, this.dialect, userId, profileId);
      if (!profile) throw new NotFoundError('No settings profile with this id.');
      if (profile.is_default === 1) throw defaultProtected('deleted');
      const defaultId = await ensureDefaultProfile(trx, userId, profile.macro_id, now);
      await this.repointDevices(trx, { userId, from: profileId, to: defaultId, now });
      const result = await trx.deleteFrom('macro_setting_profiles').where('id', '=', profileId).where('user_id', '=', userId).executeTakeFirst();
      // A concurrent delete of the same profile got there first.
      if (Number(result.numDeletedRows) === 0) throw new NotFoundError('No settings profile with this id.');
      return { deleted: true, repointed_to: defaultId };
    });
  }
}
