// The simulated device host (DEVICE_HOST=sim, the default). Placing takes no real slot; a
// boot takes SIM_BOOT_MS and starts the phone on its home screen. Boot and shutdown change
// the placement and the device row in one transaction, so a shutdown racing a boot can
// never leave a drivable device without a placement.
import type { Db } from '../../../../db/database.js';
import { type Clock, systemClock } from '../../../../lib/clock.js';
import { DeviceHostFaultError, DeviceNotFoundError, DeviceNotReadyError } from '../errors.js';
import { PlacementStore } from '../placements.js';
import type { DeviceDriver, DeviceHost, HostCapacity, Placement } from '../types.js';
import { createSimCatalogue, type SimCatalogue } from './catalogue.js';
import { applyFault, type SimFaultInjector } from './faults.js';
import { ScreenRenderer } from './render/raster.js';
import { SimDriver } from './sim-driver.js';
import { bootSeed } from './rng.js';
import { bootState } from './state.js';
import { SimStore } from './store.js';

export interface SimHostOptions {
  db: Db;
  clock?: Clock;
  /** SIM_BOOT_MS: how long a boot takes. */
  bootMs: number;
  /** Fault injection for tests (faults.ts); none in production. */
  faults?: SimFaultInjector;
  /** More app descriptions (JSON as in decisions.md §9), preinstalled beside the built-in ones. */
  apps?: unknown[];
  /** SIM_SEED: every boot seeds the device's random generator with this (the same sequence on every run); absent, a random seed. */
  seed?: number;
  /** Share one renderer (and its cache) between hosts of one process. */
  renderer?: ScreenRenderer;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class SimHost implements DeviceHost {
  readonly kind = 'sim' as const;
  private readonly clock: Clock;
  private readonly placements: PlacementStore;
  private readonly store: SimStore;
  private readonly catalogue: SimCatalogue;
  private readonly renderer: ScreenRenderer;

  constructor(private readonly options: SimHostOptions) {
    this.clock = options.clock ?? systemClock;
    this.placements = new PlacementStore(options.db, this.clock);
    this.store = new SimStore(options.db, this.clock);
    this.catalogue = createSimCatalogue(options.apps);
    this.renderer = options.renderer ?? new ScreenRenderer();
  }

  async place(deviceId: number): Promise<Placement> {
    await applyFault(this.options.faults, 'place', deviceId);
    const placement = await this.placements.insert(deviceId, 'sim', null);
    if (!placement) throw new DeviceHostFaultError(`Device ${deviceId} could not be placed.`);
    if (placement.host !== 'sim') throw new DeviceHostFaultError(`Device ${deviceId} is placed on the ${placement.host} host; stop it first.`);
    await this.store.ensure(deviceId, bootState(this.clock.now(), 0), this.catalogue.preinstalled);
    return placement;
  }

  /** A simulated device needs no real slot: the host always has room. */
  async capacityFor(): Promise<HostCapacity> {
    return { available: true };
  }

  async boot(deviceId: number, options: { signal?: AbortSignal } = {}): Promise<void> {
    const db = this.options.db.kysely;
    const now = () => this.clock.now();
    // A repeated boot (after a crashed worker) starts over: not drivable until it is ready again.
    await db.transaction().execute(async (trx) => {
      const moved = await trx.updateTable('device_placements').set({ status: 'booting', updated_at: now() }).where('device_id', '=', deviceId).where('host', '=', 'sim').executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw new DeviceNotFoundError(deviceId);
      await trx.updateTable('sim_devices').set((eb) => ({ booted: 0, version: eb('version', '+', 1), updated_at: now() })).where('device_id', '=', deviceId).execute();
    });
    await applyFault(this.options.faults, 'boot', deviceId);
    await sleep(this.options.bootMs, options.signal);
    await db.transaction().execute(async (trx) => {
      const ready = await trx.updateTable('device_placements').set({ status: 'ready', updated_at: now() }).where('device_id', '=', deviceId).where('status', '=', 'booting').executeTakeFirst();
      if (Number(ready.numUpdatedRows) !== 1) throw new DeviceNotFoundError(deviceId, 'was shut down while it booted');
      const state = JSON.stringify(bootState(now(), bootSeed(this.options.seed)));
      await trx.updateTable('sim_devices').set((eb) => ({ booted: 1, state, version: eb('version', '+', 1), updated_at: now() })).where('device_id', '=', deviceId).execute();
    });
  }

  async shutdown(deviceId: number): Promise<void> {
    await applyFault(this.options.faults, 'shutdown', deviceId);
    const db = this.options.db.kysely;
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('device_placements').where('device_id', '=', deviceId).where('host', '=', 'sim').execute();
      await trx.updateTable('sim_devices').set((eb) => ({ booted: 0, version: eb('version', '+', 1), updated_at: this.clock.now() })).where('device_id', '=', deviceId).execute();
    });
  }

  placement(deviceId: number): Promise<Placement | null> {
    return this.placements.get(deviceId);
  }

  async driver(deviceId: number): Promise<DeviceDriver> {
    const record = await this.store.load(deviceId);
    if (!record) throw new DeviceNotFoundError(deviceId);
    if (!record.booted) throw new DeviceNotReadyError(deviceId);
    return new SimDriver(deviceId, { store: this.store, catalogue: this.catalogue, renderer: this.renderer, clock: this.clock, faults: this.options.faults });
  }

  async close(): Promise<void> {
    // Nothing held: the state is in the database.
  }
}
