// A background job's exclusive hold on a cloud device (an exploration): a device lease row
// marked with the job (`held_by_job`), so runs and tool clients find the device busy through
// the checks they already make, and no caller can share or extend it. Taken inside the job's
// own creating transaction, after the device row's lock (the order leases and runs use), so
// a hold, a lease and a run can never all win a race. The job renews it while it works and
// releases it when it ends; a job whose worker died lets it run out (or its recovery releases it).
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DialectName } from '../../../db/database.js';
import type { Database } from '../../../db/schema.js';
import type { Kysely } from 'kysely';
import { DeviceBusyError } from '../../../core/errors.js';
import { type DeviceRow, lockCloudDevice } from '../cloud-device.js';
import type { ActiveRunCheck } from '../idle.js';

export interface JobHoldRequest {
  userId: number;
  deviceId: number;
  /** Names the job in the refusal other callers see, e.g. `exploration exp_…`. */
  job: string;
  now: number;
  expiresAt: number;
}

/**
 * Locks the caller's cloud device, refuses when it is busy (an active run, a live lease of
 * anyone), holds it for the job; answers the lease id. `hasActiveRun` is the runs module's
 * answer (its `deviceHasActiveRun`), which the job's module passes in.
 */
export async function holdDeviceForJob(trx: Transaction<Database>, dialect: DialectName, request: JobHoldRequest, hasActiveRun: ActiveRunCheck): Promise<{ leaseId: string; device: DeviceRow }> {
  const { userId, deviceId, now } = request;
  const device = await lockCloudDevice(trx, dialect, userId, deviceId);
  if (await hasActiveRun(trx, deviceId)) throw new DeviceBusyError('This device has an active run; stop the run or wait until it ends, then try again.');
  const held = await trx.selectFrom('device_leases').select(['expires_at', 'held_by_job']).where('device_id', '=', deviceId).executeTakeFirst();
  if (held && held.expires_at > now) {
    throw new DeviceBusyError(
      held.held_by_job !== null ? `This device is already held by ${held.held_by_job}; stop it or wait until it ends.` : 'A tool client holds a lease on this device; wait until it is released or expires.',
    );
  }
  if (held) await trx.deleteFrom('device_leases').where('device_id', '=', deviceId).execute();
  const leaseId = `lease_${randomBytes(12).toString('hex')}`;
  await trx
    .insertInto('device_leases')
    .values({ device_id: deviceId, lease_id: leaseId, user_id: userId, key_id: null, held_by_job: request.job, expires_at: request.expiresAt, created_at: now, updated_at: now })
    .execute();
  return { leaseId, device };
}

/** Extends the job's hold; false when it is gone (the device stopped, or the hold ran out and was swept). */
export async function renewJobHold(db: Kysely<Database>, leaseId: string, now: number, expiresAt: number): Promise<boolean> {
  const result = await db.updateTable('device_leases').set({ expires_at: expiresAt, updated_at: now }).where('lease_id', '=', leaseId).where('held_by_job', 'is not', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends the job's hold; a hold already gone is fine. */
export async function releaseJobHold(db: Kysely<Database>, leaseId: string): Promise<void> {
  await db.deleteFrom('device_leases').where('lease_id', '=', leaseId).where('held_by_job', 'is not', null).execute();
}
