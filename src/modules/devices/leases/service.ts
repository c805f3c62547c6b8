// Device leases (decisions.md §9): one caller (a tool client) borrows one cloud device for
// 1 to 120 minutes. One lease per device (the table's key); leasing again before expiry
// extends the same lease; it ends at release, at expiry (swept) or when the device stops.
// Leases and active runs exclude each other: this side locks the device row, then looks
// for an active run; the runs side locks the same row, then looks for a live lease.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../db/database.js';
import type { ServiceContext } from '../../../core/context.js';
import { DeviceBusyError, NotFoundError, ValidationError } from '../../../core/errors.js';
import { type ActiveRunCheck, assertNoActiveRun } from '../idle.js';
import type { Clock } from '../../../lib/clock.js';
import { toIso } from '../../../lib/clock.js';
import { type DeviceRow, lockCloudDevice } from '../cloud-device.js';
import { presentDevice } from '../devices-service.js';
import { DeviceNotReadyError, type DeviceDriver, type DeviceHost } from '../hosts/index.js';
import type { DeviceLifecycle } from '../lifecycle/service.js';

export const LEASE_MINUTES = { min: 1, max: 120, default: 15 } as const;
const MINUTE = 60_000;
/** A lease that starts a stopped device waits this long for it to boot. */
const LEASE_BOOT_WAIT_MS = 180_000;

export type LeaseCaller = Pick<ServiceContext, 'userId' | 'keyId'>;

export interface LeaseGrant {
  lease_id: string;
  device_id: number;
  expires_at: string;
}

export interface LeaseInput {
  device_id: number;
  /** 1 to 120; default 15. */
  minutes?: number;
}

export interface LeaseHolder {
  lease_id: string;
  user_id: number;
  key_id: number | null;
  expires_at: number;
}

export interface ResolvedLease {
  lease: LeaseHolder;
  device: ReturnType<typeof presentDevice>;
  driver: DeviceDriver;
}

export interface LeaseIdInput {
  lease_id: string;
}

const newLeaseId = () => `lease_${randomBytes(12).toString('hex')}`;

export class LeaseService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly host: DeviceHost,
    private readonly lifecycle: DeviceLifecycle,
    private readonly hasActiveRun: ActiveRunCheck,
  ) {}

  /**
   * Lends the device to the caller, or extends the caller's live lease. A stopped (or
   * failed) device is started and the answer waits until it is ready. 409 `device_busy`
   * when a run is active or someone else holds a live lease.
   */
  async lease(ctx: LeaseCaller, input: LeaseInput, options: { signal?: AbortSignal } = {}): Promise<LeaseGrant> {
    const { device_id: deviceId, minutes = LEASE_MINUTES.default } = input;
    if (!Number.isInteger(minutes) || minutes < LEASE_MINUTES.min || minutes > LEASE_MINUTES.max) {
      throw new ValidationError([{ path: 'minutes', message: `must be a whole number from ${LEASE_MINUTES.min} to ${LEASE_MINUTES.max}` }]);
    }
    const now = this.clock.now();
    const expiresAt = now + minutes * MINUTE;
    const { leaseId, device, fresh } = await this.db.kysely.transaction().execute(async (trx) => {
      const device = await lockCloudDevice(trx, this.db.dialect, ctx.userId, deviceId);
      await assertNoActiveRun(this.hasActiveRun, trx, { deviceId, action: 'lease' });
      if (device.hosted_state === 'stopping') throw new DeviceNotReadyError(deviceId);
      const held = await trx.selectFrom('device_leases').selectAll().where('device_id', '=', deviceId).executeTakeFirst();
      const live = held && held.expires_at > now;
      if (live && held.held_by_job !== null) throw new DeviceBusyError(`This device is held by a background job (${held.held_by_job}); wait until it ends or stop it.`);
      if (live && (held.user_id !== ctx.userId || held.key_id !== (ctx.keyId ?? null))) {
        throw new DeviceBusyError('Another caller holds a lease on this device; wait until it is released or expires.');
      }
      if (live) {
        await trx.updateTable('device_leases').set({ expires_at: expiresAt, updated_at: now }).where('device_id', '=', deviceId).execute();
        return { leaseId: held.lease_id, device, fresh: false };
      }
      const leaseId = newLeaseId();
      if (held) await trx.deleteFrom('device_leases').where('device_id', '=', deviceId).execute();
      await trx
        .insertInto('device_leases')
        .values({ device_id: deviceId, lease_id: leaseId, user_id: ctx.userId, key_id: ctx.keyId ?? null, expires_at: expiresAt, created_at: now, updated_at: now })
        .execute();
      return { leaseId, device, fresh: true };
    });
    if (device.hosted_state !== 'ready') {
      try {
        await this.bootFor(ctx, device, options.signal);
      } catch (error) {
        // A device that cannot boot is not lent: the new lease goes, an extended one stays.
        if (fresh) await this.db.kysely.deleteFrom('device_leases').where('lease_id', '=', leaseId).execute();
        throw error;
      }
    }
    return { lease_id: leaseId, device_id: deviceId, expires_at: toIso(expiresAt) };
  }

  private async bootFor(ctx: LeaseCaller, device: DeviceRow, signal?: AbortSignal): Promise<void> {
    if (device.hosted_state === 'stopped' || device.hosted_state === 'error') await this.lifecycle.start(ctx, { id: device.id });
    await this.lifecycle.waitUntilReady(device.id, { signal, timeoutMs: LEASE_BOOT_WAIT_MS });
  }

  /** Ends the caller's lease at once; 404 when there is no such lease of theirs (or it expired). */
  async release(ctx: LeaseCaller, { lease_id: leaseId }: LeaseIdInput): Promise<void> {
    const result = await this.db.kysely.deleteFrom('device_leases').where('lease_id', '=', leaseId).where('user_id', '=', ctx.userId).where('expires_at', '>', this.clock.now()).executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) throw new NotFoundError('No live lease with this id: it was released, it expired, or its device stopped.');
  }

  /** The leased device and a driver for it; 404 for an unknown, expired or someone else's lease. */
  async resolve(ctx: LeaseCaller, { lease_id: leaseId }: LeaseIdInput): Promise<ResolvedLease> {
    const row = await this.db.kysely
      .selectFrom('device_leases as l')
      .innerJoin('devices as d', 'd.id', 'l.device_id')
      .selectAll('d')
      .select(['l.lease_id', 'l.user_id as lease_user_id', 'l.key_id', 'l.expires_at'])
      .where('l.lease_id', '=', leaseId)
      .where('l.user_id', '=', ctx.userId)
      .where('l.expires_at', '>', this.clock.now())
      .executeTakeFirst();
    if (!row) throw new NotFoundError('No live lease with this id: lease the device again.');
    if (row.hosted_state !== 'ready') throw new DeviceNotReadyError(row.id);
    const lease = { lease_id: row.lease_id, user_id: row.lease_user_id, key_id: row.key_id, expires_at: row.expires_at };
    return { lease, device: presentDevice(row), driver: await this.host.driver(row.id) };
  }

  /** Who holds a live lease on each of the given devices: this caller's key ("self") or anyone else ("other"). */
  async holders(ctx: LeaseCaller, { device_ids: deviceIds }: { device_ids: number[] }): Promise<Map<number, 'self' | 'other'>> {
    if (deviceIds.length === 0) return new Map();
    const rows = await this.db.kysely
      .selectFrom('device_leases')
      .select(['device_id', 'key_id', 'user_id'])
      .where('device_id', 'in', deviceIds)
      .where('expires_at', '>', this.clock.now())
      .execute();
    return new Map(rows.map((row) => [row.device_id, row.user_id === ctx.userId && row.key_id === (ctx.keyId ?? null) ? 'self' : 'other']));
  }

  /** Who holds the device now (a live lease), or null. */
  async holderOf(deviceId: number): Promise<LeaseHolder | null> {
    const row = await this.db.kysely
      .selectFrom('device_leases')
      .select(['lease_id', 'user_id', 'key_id', 'expires_at'])
      .where('device_id', '=', deviceId)
      .where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
    return row ?? null;
  }

  /** Deletes expired leases; answers how many. */
  async sweepExpired(): Promise<number> {
    const result = await this.db.kysely.deleteFrom('device_leases').where('expires_at', '<=', this.clock.now()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
