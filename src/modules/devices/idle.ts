// "The device has no active run or lease": the checks behind every 409 `device_busy` (a run
// start, a lease, a tap from the live view, a job's hold) and behind a delete's "nothing holds
// it". Whether a run is active is the runs module's to answer (`cloud_runs` is its table): it
// hands its answer in as an `ActiveRunCheck` when the devices module is built, since runs
// depends on devices and not the other way round. The leases are this module's own.
import type { Kysely, Transaction } from 'kysely';
import { DeviceBusyError } from '../../core/errors.js';
import type { Database } from '../../db/schema.js';

/** Whether the device has an active cloud run; asked in the caller's transaction, after the device's row lock. */
export type ActiveRunCheck = (db: Kysely<Database> | Transaction<Database>, deviceId: number) => Promise<boolean>;

/** What the caller was about to do, for the refusal's message. */
export type BusyAction = 'run' | 'lease' | 'tap';

const ACTIVE_RUN_MESSAGES: Record<BusyAction, string> = {
  run: 'This cloud device already has an active run. Wait for it to end, or stop it, then start the new run.',
  lease: 'This device has an active run; stop the run or wait until it ends, then lease the device.',
  tap: 'This device has an active run; stop the run or wait until it ends, then tap.',
};

const LEASED_MESSAGE = 'This cloud device is leased to a tool client, or held by a map exploration or a recording. Wait for the lease to end (or release it, or stop the exploration or the recording), then start the run.';

/** 409 `device_busy` for an active run, as the action would be refused. */
export const deviceBusyWithRun = (action: BusyAction) => new DeviceBusyError(ACTIVE_RUN_MESSAGES[action]);

/** 409 `device_busy` when the device has an active run. Called inside the transaction that holds the device's row lock, so a run and a lease never both win. */
export async function assertNoActiveRun(hasActiveRun: ActiveRunCheck, db: Kysely<Database>, input: { deviceId: number; action: BusyAction }): Promise<void> {
  if (await hasActiveRun(db, input.deviceId)) throw deviceBusyWithRun(input.action);
}

/**
 * 409 `device_busy` when an unexpired lease holds the device, unless it is `exceptLease` (an
 * authoring session running its code on the device its own lease holds). A run start asks it
 * inside its transaction, after the device's row lock, as leases ask for runs.
 */
export async function assertNoLiveLease(db: Kysely<Database>, input: { deviceId: number; now: number; exceptLease?: string }): Promise<void> {
  const lease = await db.selectFrom('device_leases').select('lease_id').where('device_id', '=', input.deviceId).where('expires_at', '>', input.now).executeTakeFirst();
  if (lease && lease.lease_id !== input.exceptLease) throw new DeviceBusyError(LEASED_MESSAGE);
}

/**
 * `assertNoLiveLease` for many devices at once (the scheduler's batched run starts), in one
 * statement: the refusal each leased device's run start gets, by device id. Called inside the
 * transaction that holds the devices' row locks, as the single check is.
 */
export async function liveLeaseRefusals(db: Kysely<Database>, deviceIds: readonly number[], now: number): Promise<Map<number, DeviceBusyError>> {
  const refusals = new Map<number, DeviceBusyError>();
  if (deviceIds.length === 0) return refusals;
  const leases = await db.selectFrom('device_leases').select('device_id').where('device_id', 'in', [...deviceIds]).where('expires_at', '>', now).execute();
  for (const lease of leases) refusals.set(lease.device_id, new DeviceBusyError(LEASED_MESSAGE));
  return refusals;
}

/**
 * 409 `device_busy` when a background job holds the device (a recording, a map exploration):
 * the live view's tap must not fight what drives the device. A tool client's lease does not
 * count here: the person and the tool client share the device as before.
 */
export async function assertNoJobHold(db: Kysely<Database>, deviceId: number, now: number): Promise<void> {
  const hold = await db.selectFrom('device_leases').select('held_by_job').where('device_id', '=', deviceId).where('expires_at', '>', now).where('held_by_job', 'is not', null).executeTakeFirst();
  if (hold) throw new DeviceBusyError(`This device is held by ${hold.held_by_job}: record through it, or stop it first.`);
}
