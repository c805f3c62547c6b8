// The writes to `devices` that other modules make inside their own transactions, kept here so
// the devices module stays the table's only writer and reader: a run's history record counts
// the run on its device, a deleted settings profile hands its devices to the macro's Default,
// and an event names the group its device is in.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The group of the caller's device now (null: in none; undefined: no such device of theirs). */
export async function groupOfDevice(db: Kysely<Database>, userId: number, deviceId: number): Promise<number | null | undefined> {
  const row = await db.selectFrom('devices').select('group_id').where('id', '=', deviceId).where('user_id', '=', userId).executeTakeFirst();
  return row?.group_id;
}

/** One more run on the device's counter, in the transaction that opens the run's history record. */
export async function countDeviceRun(db: Kysely<Database>, userId: number, deviceId: number): Promise<void> {
  await db
    .updateTable('devices')
    .set((eb) => ({ run_count: eb('run_count', '+', 1) }))
    .where('id', '=', deviceId)
    .where('user_id', '=', userId)
    .execute();
}

/** `countDeviceRun` for many runs (each device at most once, as one device runs one run at a time), in one statement. */
export async function countDeviceRuns(db: Kysely<Database>, runs: { userId: number; deviceId: number }[]): Promise<void> {
  if (runs.length === 0) return;
  await db
    .updateTable('devices')
    .set((eb) => ({ run_count: eb('run_count', '+', 1) }))
    .where((eb) => eb.or(runs.map((run) => eb.and([eb('id', '=', run.deviceId), eb('user_id', '=', run.userId)]))))
    .execute();
}

/** The user's devices on profile `from` follow profile `to`; in the transaction that deletes `from`. */
export async function repointDevicesProfile(db: Kysely<Database>, input: { userId: number; from: number; to: number; now: number }): Promise<void> {
  await db.updateTable('devices').set({ profile_id: input.to, updated_at: input.now }).where('profile_id', '=', input.from).where('user_id', '=', input.userId).execute();
}
