// The writes to `devices` that other modules make inside their own transactions, kept here so
// the devices module stays the table's only writer: a run's history record counts the run on
// its device, and a deleted settings profile hands its devices to the macro's Default.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** One more run on the device's counter, in the transaction that opens the run's history record. */
export async function countDeviceRun(db: Kysely<Database>, userId: number, deviceId: number): Promise<void> {
  await db
    .updateTable('devices')
    .set((eb) => ({ run_count: eb('run_count', '+', 1) }))
    .where('id', '=', deviceId)
    .where('user_id', '=', userId)
    .execute();
}

/** The user's devices on profile `from` follow profile `to`; in the transaction that deletes `from`. */
export async function repointDevicesProfile(db: Kysely<Database>, input: { userId: number; from: number; to: number; now: number }): Promise<void> {
  await db.updateTable('devices').set({ profile_id: input.to, updated_at: input.now }).where('profile_id', '=', input.from).where('user_id', '=', input.userId).execute();
}
