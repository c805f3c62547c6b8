// Start, stop and delete a cloud device (decisions.md §3, §9). Each answers at once: it
// moves the device to its next state in one transaction and wakes the lifecycle workers,
// which do the slow part (placing, booting, shutting down) under a lease. `waitUntilReady`
// is for callers that need the device booted (a lease, a cloud run).
import { NotACloudDeviceError, NotFoundError } from '../../../core/errors.js';
import type { ActiveRunCheck } from '../idle.js';
import type { Db } from '../../../db/database.js';
import type { ServiceContext } from '../../../core/context.js';
import type { IdInput } from '../../../core/schema.js';
import type { Clock } from '../../../lib/clock.js';
import { type DeviceRow, findCloudDevice, lockCloudDevice } from '../cloud-device.js';
import { presentDevice } from '../devices-service.js';
import { DeviceHostFaultError, DeviceNotReadyError, DeviceStoppedWhileWaitingError } from '../hosts/index.js';
import type { StopActiveRun } from './handler.js';
import { DEVICE_LIFECYCLE } from './job.js';

export interface LifecycleAnswer {
  device: ReturnType<typeof presentDevice>;
  /** True when a transition was queued (202); false when the device was answered as it is (200). */
  queued: boolean;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Default 120 s. */
  timeoutMs?: number;
}

const WAIT_POLL_MS = 20;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => (clearTimeout(timer), reject(signal?.reason));
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class DeviceLifecycle {
  private readonly beforeStop: StopActiveRun[] = [];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly hasActiveRun: ActiveRunCheck,
  ) {}

  /**
   * Registers what must end before a cloud device stops or is deleted: the runs module's
   * active run, registered when the modules are wired (runs needs devices, so devices cannot
   * take runs when it is built). The lifecycle job awaits each before it shuts the device down.
   */
  onBeforeStop(handler: StopActiveRun): void {
    this.beforeStop.push(handler);
  }

  /** Runs what was registered with onBeforeStop, in order (the lifecycle job's stop and delete). */
  async stopActiveWork(deviceId: number, reason: string): Promise<void> {
    for (const handler of this.beforeStop) await handler(deviceId, reason);
  }

  /** `stopped`/`error` → `placing`; any other state is answered as it is. */
  async start(ctx: Pick<ServiceContext, 'userId'>, { id: deviceId }: IdInput): Promise<LifecycleAnswer> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const row = await lockCloudDevice(trx, this.db.dialect, ctx.userId, deviceId);
      if (row.hosted_state !== 'stopped' && row.hosted_state !== 'error') return { device: presentDevice(row), queued: false };
      const moved = await trx
        .updateTable('devices')
        .set({ hosted_state: 'placing', hosted_state_message: null, updated_at: this.clock.now() })
        .where('id', '=', deviceId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.db.wakeup.notify(trx, DEVICE_LIFECYCLE);
      return { device: presentDevice(moved), queued: true };
    });
  }

  /** `placing`, `starting`, `ready`, `error` → `stopping`; `stopping` and `stopped` are answered as they are. */
  async stop(ctx: Pick<ServiceContext, 'userId'>, { id: deviceId }: IdInput): Promise<LifecycleAnswer> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const row = await lockCloudDevice(trx, this.db.dialect, ctx.userId, deviceId);
      if (row.hosted_state === 'stopped' || row.hosted_state === 'stopping') return { device: presentDevice(row), queued: false };
      const moved = await trx
        .updateTable('devices')
        .set({ hosted_state: 'stopping', hosted_state_message: null, updated_at: this.clock.now() })
        .where('id', '=', deviceId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.db.wakeup.notify(trx, DEVICE_LIFECYCLE);
      return { device: presentDevice(moved), queued: true };
    });
  }

  /**
   * Deletes the device: at once when it is stopped and holds nothing on a host; otherwise it
   * disappears for its owner now, and the job stops its run, ends its lease, shuts it down
   * and then deletes the row.
   */
  async remove(ctx: Pick<ServiceContext, 'userId'>, { id: deviceId }: IdInput): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      const row = await lockCloudDevice(trx, this.db.dialect, ctx.userId, deviceId);
      const placed = await trx.selectFrom('device_placements').select('device_id').where('device_id', '=', deviceId).executeTakeFirst();
      const activeRun = await this.hasActiveRun(trx, deviceId);
      if (row.hosted_state === 'stopped' && !placed && !activeRun && row.locked_by === null) {
        await trx.deleteFrom('devices').where('id', '=', deviceId).execute();
        return;
      }
      const now = this.clock.now();
      const state = row.hosted_state === 'stopped' || row.hosted_state === 'error' ? row.hosted_state : 'stopping';
      await trx.updateTable('devices').set({ hosted_state: state, delete_requested_at: now, updated_at: now }).where('id', '=', deviceId).execute();
      await this.db.wakeup.notify(trx, DEVICE_LIFECYCLE);
    });
  }

  /**
   * Starts the device when it is stopped (or in error) and resolves once it is `ready`: what a
   * cloud run waits for. A device deleted before or during the wait rejects with
   * DeviceStoppedWhileWaitingError, like one stopped meanwhile, not with a bare 404.
   */
  async startAndWait(ctx: Pick<ServiceContext, 'userId'>, { id: deviceId }: IdInput, options: WaitOptions = {}): Promise<void> {
    try {
      await this.start(ctx, { id: deviceId });
    } catch (error) {
      if (error instanceof NotFoundError && !(error instanceof NotACloudDeviceError)) throw new DeviceStoppedWhileWaitingError(deviceId, 'deleted');
      throw error;
    }
    await this.waitUntilReady(deviceId, options);
  }

  /** The caller's cloud device as it is now. */
  async get(ctx: Pick<ServiceContext, 'userId'>, { id: deviceId }: IdInput): Promise<DeviceRow> {
    return findCloudDevice(this.db.kysely, ctx.userId, deviceId);
  }

  /**
   * Resolves once the device is `ready`. Throws DeviceHostFaultError (with the reason) when
   * it went to `error`, DeviceStoppedWhileWaitingError when it is stopping or stopped or was
   * deleted, DeviceNotReadyError when the time ran out.
   */
  async waitUntilReady(deviceId: number, options: WaitOptions = {}): Promise<void> {
    const deadline = Date.now() + (options.timeoutMs ?? 120_000);
    for (;;) {
      const row = await this.db.kysely.selectFrom('devices').select(['hosted_state', 'hosted_state_message', 'delete_requested_at']).where('id', '=', deviceId).executeTakeFirst();
      if (!row || row.delete_requested_at !== null) throw new DeviceStoppedWhileWaitingError(deviceId, 'deleted');
      if (row.hosted_state === 'ready') return;
      if (row.hosted_state === 'error') throw new DeviceHostFaultError(row.hosted_state_message ?? `Device ${deviceId} failed to start.`);
      if (row.hosted_state === 'stopping' || row.hosted_state === 'stopped') throw new DeviceStoppedWhileWaitingError(deviceId, 'stopped');
      if (Date.now() >= deadline) throw new DeviceNotReadyError(deviceId);
      await sleep(WAIT_POLL_MS, options.signal);
    }
  }
}
