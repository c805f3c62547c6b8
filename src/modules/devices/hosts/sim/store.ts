// The simulated devices' state in `sim_devices`. Every change is read, applied, and written
// back only if nobody wrote in between (compare-and-set on `version`); on a clash the change
// is applied again to the fresh state. Two processes tapping one device therefore both land.
import type { Db } from '../../../../db/database.js';
import type { Clock } from '../../../../lib/clock.js';
import { DeviceHostFaultError, DeviceNotFoundError, DeviceNotReadyError } from '../errors.js';
import { type SimInstalledApp, type SimState, withDefaults } from './state.js';

export interface SimRecord {
  booted: boolean;
  state: SimState;
  installed: SimInstalledApp[];
  version: number;
}

const MAX_ATTEMPTS = 25;

export class SimStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async load(deviceId: number): Promise<SimRecord | null> {
    const row = await this.db.kysely.selectFrom('sim_devices').select(['booted', 'state', 'installed', 'version']).where('device_id', '=', deviceId).executeTakeFirst();
    if (!row) return null;
    return { booted: row.booted === 1, state: withDefaults(JSON.parse(row.state) as SimState), installed: JSON.parse(row.installed) as SimInstalledApp[], version: Number(row.version) };
  }

  /** The record of a booted device, or the error a caller should see. */
  async loadBooted(deviceId: number): Promise<SimRecord> {
    const record = await this.load(deviceId);
    if (!record) throw new DeviceNotFoundError(deviceId);
    if (!record.booted) throw new DeviceNotReadyError(deviceId);
    return record;
  }

  /** Creates the device's row on first placement, with the preinstalled apps; an existing row is kept. */
  async ensure(deviceId: number, state: SimState, installed: SimInstalledApp[]): Promise<void> {
    await this.db.kysely
      .insertInto('sim_devices')
      .values({ device_id: deviceId, booted: 0, state: JSON.stringify(state), installed: JSON.stringify(installed), version: 1, updated_at: this.clock.now() })
      .onConflict((oc) => oc.column('device_id').doNothing())
      .execute();
  }

  /**
   * Applies `change` to a booted device's record and stores it. `change` may run more than
   * once (after a clash), so it must only touch the record it is given; it gets the record's
   * state and installed apps as stored too (`[state, installed]`), untouched by the change.
   */
  async update<T>(deviceId: number, change: (record: SimRecord, stored: string) => T): Promise<T> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const record = await this.loadBooted(deviceId);
      const before = JSON.stringify([record.state, record.installed]);
      const result = change(record, before);
      if (JSON.stringify([record.state, record.installed]) === before) return result;
      const written = await this.db.kysely
        .updateTable('sim_devices')
        .set({ state: JSON.stringify(record.state), installed: JSON.stringify(record.installed), version: record.version + 1, updated_at: this.clock.now() })
        .where('device_id', '=', deviceId)
        .where('version', '=', record.version)
        .where('booted', '=', 1)
        .executeTakeFirst();
      if (Number(written.numUpdatedRows) === 1) return result;
    }
    throw new DeviceHostFaultError(`Device ${deviceId} is changing too fast to apply this action; try again.`);
  }
}
