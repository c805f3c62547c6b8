// The writes the lifecycle job makes, each only while its lease still holds the device and
// the device is still in the state the step started from: a stop that arrived meanwhile
// (the route writes `stopping` without waiting for the lease) is never overwritten.
import type { Kysely } from 'kysely';
import type { Lease } from '../../../db/jobs/kind.js';
import type { Database, HostedState } from '../../../db/schema.js';

type Db = Kysely<Database>;

function heldRow(db: Db, lease: Lease, now: number) {
  return db.updateTable('devices').where('id', '=', lease.id).where('locked_by', '=', lease.token).where('locked_until', '>', now);
}

/** `from` → `to` (and the message), keeping the lease; false when the state or the lease moved on. */
export async function moveState(db: Db, lease: Lease, now: number, from: HostedState, to: HostedState, message: string | null = null): Promise<boolean> {
  const result = await heldRow(db, lease, now).set({ hosted_state: to, hosted_state_message: message, updated_at: now }).where('hosted_state', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Ends the job: gives the lease back, but only when the device is at rest (ready, stopped or
 * error, no deletion pending). False means more work arrived meanwhile and the job goes on.
 */
export async function releaseAtRest(db: Db, lease: Lease, now: number): Promise<boolean> {
  const result = await heldRow(db, lease, now)
    .set({ locked_until: null, locked_by: null })
    .where('hosted_state', 'in', ['ready', 'stopped', 'error'])
    .where('delete_requested_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes the device (its placement, simulated state and lease go with it by cascade). */
export async function deleteHeld(db: Db, lease: Lease, now: number): Promise<boolean> {
  const result = await db
    .deleteFrom('devices')
    .where('id', '=', lease.id)
    .where('locked_by', '=', lease.token)
    .where('locked_until', '>', now)
    .where('delete_requested_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** A stop ends the device's lease (decisions.md §9). */
export async function endDeviceLease(db: Db, deviceId: number): Promise<void> {
  await db.deleteFrom('device_leases').where('device_id', '=', deviceId).execute();
}

/** The device while `lease` still holds it (token and time); undefined once deleted or lost. */
export function readHeld(db: Db, lease: Lease, now: number) {
  return db
    .selectFrom('devices')
    .select(['id', 'user_id', 'hosted_state', 'delete_requested_at'])
    .where('id', '=', lease.id)
    .where('locked_by', '=', lease.token)
    .where('locked_until', '>', now)
    .executeTakeFirst();
}
