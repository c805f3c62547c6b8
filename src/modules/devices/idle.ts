// "The device has no active run or lease": the one check behind every 409 `device_busy`
// (a run start, a lease, a tap from the live view) and behind a delete's "nothing holds it".
// It reads `cloud_runs`, the runs module's table, here because runs depends on devices and
// not the other way round; the active states are core's ACTIVE_RUN_STATES, listed once.
import type { Kysely } from 'kysely';
import { DeviceBusyError } from '../../core/errors.js';
import { ACTIVE_RUN_STATES } from '../../core/values.js';
import type { Database } from '../../db/schema.js';

/** What the caller was about to do, for the refusal's message. */
export type BusyAction = 'run' | 'lease' | 'tap';

const ACTIVE_RUN_MESSAGES: Record<BusyAction, string> = {
  run: 'This cloud device already has an active run. Wait for it to end, or stop it, then start the new run.',
  lease: 'This device has an active run; stop the run or wait until it ends, then lease the device.',
  tap: 'This device has an active run; stop the run or wait until it ends, then tap.',
};

export async function hasActiveRun(db: Kysely<Database>, deviceId: number): Promise<boolean> {
  const run = await db.selectFrom('cloud_runs').select('id').where('device_id', '=', deviceId).where('state', 'in', ACTIVE_RUN_STATES).executeTakeFirst();
  return run !== undefined;
}

const LEASED_MESSAGE = 'This cloud device is leased to a tool client, or held by a map exploration or a recording. Wait for the lease to end (or release it, or stop the exploration or the recording), then start the run.';

/** 409 `device_busy` for an active run, as the action would be refused. */
export const deviceBusyWithRun = (action: BusyAction) => new DeviceBusyError(ACTIVE_RUN_MESSAGES[action]);

/**
 * 409 `device_busy` when the device has an active run, or, when `now` is given, an unexpired
 * lease (a lease's own holder extends it instead: the lease service checks that itself).
 * Called inside the transaction that holds the device's row lock, so a run and a lease never both win.
 */
export async function assertDeviceIdle(db: Kysely<Database>, input: { deviceId: number; action: BusyAction; now?: number; exceptLease?: string }): Promise<void> {
  const { now } = input;
  if (now === undefined) {
    if (await hasActiveRun(db, input.deviceId)) throw deviceBusyWithRun(input.action);
    return;
  }
  // Both questions in one statement: a run start asks them on every start, inside its transaction.
  const held = await db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('cloud_runs').select('id').where('device_id', '=', input.deviceId).where('state', 'in', ACTIVE_RUN_STATES)).as('run'),
      eb.selectFrom('device_leases').select('lease_id').where('device_id', '=', input.deviceId).where('expires_at', '>', now).limit(1).as('lease'),
    ])
    .executeTakeFirstOrThrow();
  if (held.run) throw deviceBusyWithRun(input.action);
  // `exceptLease`: the caller's own lease (an authoring session running its code) does not make the device busy.
  if (held.lease !== null && held.lease !== input.exceptLease) throw new DeviceBusyError(LEASED_MESSAGE);
}

/**
 * `assertDeviceIdle` for many devices at once (the scheduler's batched run starts), in one
 * statement: the refusal each busy device's run start gets, by device id. Called inside the
 * transaction that holds the devices' row locks, as the single check is.
 */
export async function runStartRefusals(db: Kysely<Database>, deviceIds: number[], now: number): Promise<Map<number, DeviceBusyError>> {
  const refusals = new Map<number, DeviceBusyError>();
  if (deviceIds.length === 0) return refusals;
  const [runs, leases] = await Promise.all([
    db.selectFrom('cloud_runs').select('device_id').where('device_id', 'in', deviceIds).where('state', 'in', ACTIVE_RUN_STATES).execute(),
    db.selectFrom('device_leases').select('device_id').where('device_id', 'in', deviceIds).where('expires_at', '>', now).execute(),
  ]);
  for (const lease of leases) refusals.set(lease.device_id, new DeviceBusyError(LEASED_MESSAGE));
  for (const run of runs) refusals.set(run.device_id, deviceBusyWithRun('run'));
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
