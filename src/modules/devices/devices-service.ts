// Devices on the user's own machine and cloud device records. A device follows one macro
// and, for a code macro, one of its settings profiles (the macro's Default unless told).
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { lockProfileRow } from '../../db/locks.js';
import type { GroupKind } from '../../core/values.js';
import type { Database, DevicesTable } from '../../db/schema.js';
import { containsInsensitive, textSortKey } from '../../db/text.js';
import type { ServiceContext } from '../../core/context.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { offsetOf, pageOf, pageRequest, parseSort } from '../../core/paging.js';
import type { IdInput } from '../../core/schema.js';
import { type Clock, toIso } from '../../lib/clock.js';
import { compact } from '../../lib/compact.js';
import { ownedMacroKind } from '../macros/index.js';
import { ensureDefaultProfile } from '../profiles/index.js';
import type { CreateCloudDeviceInput, CreateDeviceInput, DEVICE_SORTS, DeviceListInput, UpdateDeviceInput } from './schemas.js';

type DeviceSort = (typeof DEVICE_SORTS)[number];
type DeviceRow = Selectable<DevicesTable>;

export function presentDevice(row: DeviceRow) {
  return compact({
    id: row.id,
    name: row.name,
    port: row.port,
    macro_id: row.macro_id,
    profile_id: row.profile_id,
    group_id: row.group_id,
    run_count: row.run_count,
    is_hosted: row.is_hosted === 1,
    hosted_state: row.is_hosted === 1 ? row.hosted_state : null,
    // Only in `error` (app-api.md: "for a cloud device in error, why").
    hosted_state_message: row.is_hosted === 1 && row.hosted_state === 'error' ? row.hosted_state_message : null,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  });
}

export async function findOwnedDevice(db: Kysely<Database> | Transaction<Database>, userId: number, deviceId: number): Promise<DeviceRow> {
  // A device whose deletion is under way (lifecycle/service.ts) is already gone for its owner.
  const row = await db.selectFrom('devices').selectAll().where('id', '=', deviceId).where('user_id', '=', userId).where('delete_requested_at', 'is', null).executeTakeFirst();
  if (!row) throw new NotFoundError('No device with this id.');
  return row;
}

/** `findOwnedDevice` for many (owner, device) pairs in one read: the ones that exist for their owner, by id. */
export async function findOwnedDevices(db: Kysely<Database> | Transaction<Database>, wanted: { userId: number; deviceId: number }[]): Promise<Map<number, DeviceRow>> {
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('devices').selectAll().where('id', 'in', [...new Set(wanted.map((w) => w.deviceId))]).where('delete_requested_at', 'is', null).execute();
  const owners = new Map(wanted.map((w) => [w.deviceId, w.userId]));
  return new Map(rows.filter((row) => owners.get(row.id) === row.user_id).map((row) => [row.id, row]));
}

const invalid = (path: string, message: string) => new ValidationError([{ path, message }]);

type DeviceChanges = UpdateDeviceInput;

export class DeviceService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
  ) {}

  /** A group id from a request body must be the caller's and of the device's kind. */
  private async checkGroup(trx: Transaction<Database>, userId: number, groupId: number, kind: GroupKind): Promise<void> {
    const group = await trx.selectFrom('device_groups').select('kind').where('id', '=', groupId).where('user_id', '=', userId).executeTakeFirst();
    if (!group) throw invalid('body.group_id', 'is not one of your device groups');
    if (group.kind !== kind) throw invalid('body.group_id', `must be a ${kind} group for this device`);
  }

  private async insert(userId: number, values: { name: string; port: number | null; group_id?: number | null; hosted: boolean }) {
    const kind = values.hosted ? 'cloud' : 'byod';
    const now = this.clock.now();
    const row = await this.db.transaction().execute(async (trx) => {
      if (values.group_id) await this.checkGroup(trx, userId, values.group_id, kind);
      return trx
        .insertInto('devices')
        .values({
          user_id: userId,
          name: values.name.trim(),
          port: values.port,
          is_hosted: values.hosted ? 1 : 0,
          hosted_state: values.hosted ? 'stopped' : null,
          group_id: values.group_id ?? null,
          macro_id: null,
          profile_id: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return presentDevice(row);
  }

  createLocal(ctx: ServiceContext, input: CreateDeviceInput) {
    return this.insert(ctx.userId, { name: input.name, port: input.port, group_id: input.group_id, hosted: false });
  }

  createCloud(ctx: ServiceContext, input: CreateCloudDeviceInput) {
    return this.insert(ctx.userId, { name: input.name, port: null, group_id: input.group_id, hosted: true });
  }

  async update(ctx: ServiceContext, { id: deviceId, ...changes }: IdInput & UpdateDeviceInput) {
    const { userId } = ctx;
    const now = this.clock.now();
    const row = await this.db.transaction().execute(async (trx) => {
      const device = await findOwnedDevice(trx, userId, deviceId);
      const set: Updateable<DevicesTable> = { updated_at: now };
      if (changes.name !== undefined) set.name = changes.name.trim();
      if (changes.group_id !== undefined) {
        if (changes.group_id !== null) await this.checkGroup(trx, userId, changes.group_id, device.is_hosted ? 'cloud' : 'byod');
        set.group_id = changes.group_id;
      }
      if (changes.macro_id !== undefined || changes.profile_id !== undefined) {
        Object.assign(set, await this.following(trx, userId, device, changes, now));
      }
      return trx.updateTable('devices').set(set).where('id', '=', deviceId).where('user_id', '=', userId).returningAll().executeTakeFirstOrThrow();
    });
    return presentDevice(row);
  }

  /** Works out which macro and profile the device follows after a change. */
  private async following(trx: Transaction<Database>, userId: number, device: DeviceRow, changes: DeviceChanges, now: number) {
    const macroId = changes.macro_id !== undefined ? changes.macro_id : device.macro_id;
    if (macroId === null) {
      if (changes.profile_id) throw invalid('body.profile_id', 'needs a macro to belong to');
      return { macro_id: null, profile_id: null };
    }
    const kind = await ownedMacroKind(trx, userId, macroId);
    if (kind === null) throw invalid('body.macro_id', 'is not one of your macros');
    if (kind !== 'python') {
      if (changes.profile_id) throw invalid('body.profile_id', 'block macros have no settings profiles');
      return { macro_id: macroId, profile_id: null };
    }
    if (changes.profile_id) {
      // Locked until commit, so a concurrent delete of the profile cannot slip in between.
      const profile = await lockProfileRow(trx, this.dialect, userId, changes.profile_id, macroId);
      if (!profile) throw invalid('body.profile_id', 'is not a settings profile of this macro');
      return { macro_id: macroId, profile_id: profile.id };
    }
    // A new macro without a profile, or an explicit null profile: the macro's Default.
    if (changes.macro_id !== undefined && changes.macro_id === device.macro_id && changes.profile_id === undefined && device.profile_id !== null) {
      return { macro_id: macroId, profile_id: device.profile_id };
    }
    return { macro_id: macroId, profile_id: await ensureDefaultProfile(trx, userId, macroId, now) };
  }

  /** Devices on the user's own machine only; cloud devices have their own lifecycle. */
  async removeLocal(ctx: ServiceContext, { id: deviceId }: IdInput): Promise<void> {
    const { userId } = ctx;
    const device = await findOwnedDevice(this.db, userId, deviceId);
    if (device.is_hosted) {
      throw new NotFoundError('This is a cloud device, not a device on your own machine.', 'not_a_local_device');
    }
    await this.db.deleteFrom('devices').where('id', '=', deviceId).where('user_id', '=', userId).execute();
  }

  async list(ctx: ServiceContext, filter: DeviceListInput) {
    const page = pageRequest(filter);
    let query = this.db.selectFrom('devices').where('user_id', '=', ctx.userId).where('delete_requested_at', 'is', null);
    if (filter.macro_id !== undefined) query = query.where('macro_id', '=', filter.macro_id);
    if (filter.group_id !== undefined) query = query.where('group_id', '=', filter.group_id);
    if (filter.name) query = query.where(containsInsensitive('name', filter.name));
    const { field, direction } = parseSort<DeviceSort>(filter.sort, 'name');
    const [{ total }, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      query
        .selectAll()
        // Cloud devices have no port; they sort after every local device either way.
        .orderBy(field === 'name' ? textSortKey('name', this.dialect) : field, (ob) => (direction === 'asc' ? ob.asc() : ob.desc()).nullsLast())
        .orderBy('id', direction)
        .limit(page.pageSize)
        .offset(offsetOf(page))
        .execute(),
    ]);
    return pageOf(page, Number(total), rows.map(presentDevice));
  }
}
