// Where each running cloud device sits, in `device_placements`, shared by every process.
// For `adb` the row binds a serial (`slot`, unique) to the device until it stops, so two
// processes placing devices at the same moment can never take the same phone.
import type { Db } from '../../../db/database.js';
import { isForeignKeyViolation } from '../../../db/database.js';
import type { DevicePlacementsTable, PlacementStatus } from '../../../db/schema.js';
import type { Clock } from '../../../lib/clock.js';
import { DeviceNotFoundError } from './errors.js';
import type { HostKind, Placement } from './types.js';

export interface SlotClaim {
  server: string;
  serial: string;
}

export function slotName(claim: SlotClaim): string {
  return `${claim.server}/${claim.serial}`;
}

function toPlacement(row: Pick<DevicePlacementsTable, 'device_id' | 'host' | 'slot' | 'status'>): Placement {
  return { deviceId: row.device_id, host: row.host, slot: row.slot, status: row.status };
}

export class PlacementStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get(deviceId: number): Promise<Placement | null> {
    const row = await this.db.kysely.selectFrom('device_placements').select(['device_id', 'host', 'slot', 'status']).where('device_id', '=', deviceId).executeTakeFirst();
    return row ? toPlacement(row) : null;
  }

  /** The whole row: the bound server and serial, and the screen read at boot. */
  async row(deviceId: number): Promise<DevicePlacementsTable | undefined> {
    return this.db.kysely.selectFrom('device_placements').selectAll().where('device_id', '=', deviceId).executeTakeFirst();
  }

  /** `booting` → `ready`, recording the screen; false when the device was shut down meanwhile. */
  async markReady(deviceId: number, screen: { width: number; height: number; density: number; display?: string | null } | null): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable('device_placements')
      .set({ status: 'ready', screen_width: screen?.width ?? null, screen_height: screen?.height ?? null, density: screen?.density ?? null, screen_display: screen?.display ?? null, updated_at: this.clock.now() })
      .where('device_id', '=', deviceId)
      .where('status', '=', 'booting')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Places the device, on `claim`'s slot if given. Answers the placement, or null when that
   * slot is already bound to another device. A device already placed keeps its placement.
   */
  async insert(deviceId: number, host: HostKind, claim: SlotClaim | null): Promise<Placement | null> {
    const now = this.clock.now();
    try {
      const result = await this.db.kysely
        .insertInto('device_placements')
        .values({
        device_id: deviceId,
        host,
        slot: claim ? slotName(claim) : null,
        server: claim?.server ?? null,
        serial: claim?.serial ?? null,
        status: 'placed',
        screen_width: null,
        screen_height: null,
        density: null,
        restore_settings: null,
        screen_display: null,
        created_at: now,
        updated_at: now,
      })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 1) return { deviceId, host, slot: claim ? slotName(claim) : null, status: 'placed' };
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new DeviceNotFoundError(deviceId, 'does not exist');
      throw error;
    }
    // Nothing inserted: the device was already placed (keep that), or the slot is taken (null).
    return this.get(deviceId);
  }

  /**
   * Keeps the phone's own values of what the host changes at boot, unless some are kept
   * already (a boot run again after a crash must not keep the host's own values). Answers
   * what is kept now; null when the device is no longer placed.
   */
  async keepRestoreSettings(deviceId: number, json: string): Promise<string | null> {
    await this.db.kysely.updateTable('device_placements').set({ restore_settings: json }).where('device_id', '=', deviceId).where('restore_settings', 'is', null).execute();
    return (await this.row(deviceId))?.restore_settings ?? null;
  }

  /** Moves the status from one of `from` to `to`; false when the row is gone or elsewhere. */
  async setStatus(deviceId: number, from: PlacementStatus[], to: PlacementStatus): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable('device_placements')
      .set({ status: to, updated_at: this.clock.now() })
      .where('device_id', '=', deviceId)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async remove(deviceId: number): Promise<void> {
    await this.db.kysely.deleteFrom('device_placements').where('device_id', '=', deviceId).execute();
  }

  /** Slots bound right now on this host kind. */
  async boundSlots(host: HostKind): Promise<Set<string>> {
    const rows = await this.db.kysely.selectFrom('device_placements').select('slot').where('host', '=', host).where('slot', 'is not', null).execute();
    return new Set(rows.map((r) => r.slot as string));
  }
}
