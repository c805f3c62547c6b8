// Row locks for writers whose correctness depends on rows staying as they read them: the
// per-user key count, run-log sequence numbers, a profile being assigned while it is
// deleted. PostgreSQL locks the row until the transaction ends (`FOR UPDATE`); SQLite's
// single connection already serialises transactions, so a plain read is enough there.
import type { Selectable, Transaction } from 'kysely';
import type { DialectName } from './database.js';
import type { Database, DevicesTable } from './schema.js';

type Trx = Transaction<Database>;

/** Serialises writers that must see a consistent per-user count (the 25-key limit). */
export async function lockUserRow(trx: Trx, dialect: DialectName, userId: number): Promise<void> {
  const query = trx.selectFrom('users').select('id').where('id', '=', userId);
  await (dialect === 'postgres' ? query.forUpdate() : query).execute();
}

/** Locks one executions row for the rest of the transaction; false when it does not exist. */
export async function lockExecutionRow(trx: Trx, dialect: DialectName, executionPk: number): Promise<boolean> {
  const query = trx.selectFrom('executions').select('id').where('id', '=', executionPk);
  const row = await (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  return row !== undefined;
}

/**
 * Locks a settings profile of the user's macro; undefined when there is none. Both the
 * profile delete and a device being pointed at the profile take this lock first, so a
 * device can never end up following a profile that was deleted under it.
 */
export async function lockProfileRow(trx: Trx, dialect: DialectName, userId: number, profileId: number, macroId?: number) {
  let query = trx.selectFrom('macro_setting_profiles').selectAll().where('id', '=', profileId).where('user_id', '=', userId);
  if (macroId !== undefined) query = query.where('macro_id', '=', macroId);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** Locks one of the user's devices; undefined when there is none. Serialises proxy assignments per device. */
export async function lockDeviceRow(trx: Trx, dialect: DialectName, userId: number, deviceId: number) {
  const query = trx.selectFrom('devices').selectAll().where('id', '=', deviceId).where('user_id', '=', userId);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/**
 * `lockDeviceRow` for many devices (the scheduler's batched run starts), in id order so two
 * batches that share devices never wait on each other crosswise; the rows that exist, by id.
 */
export async function lockDeviceRows(trx: Trx, dialect: DialectName, deviceIds: number[]) {
  if (deviceIds.length === 0) return new Map<number, Selectable<DevicesTable>>();
  const query = trx.selectFrom('devices').selectAll().where('id', 'in', deviceIds).orderBy('id');
  const rows = await (dialect === 'postgres' ? query.forUpdate() : query).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Locks one marketplace listing; undefined when there is none. New versions (their numbers)
 * and reviews (the kept average) of a listing are written one at a time under it.
 */
export async function lockListingRow(trx: Trx, dialect: DialectName, listingId: number) {
  const query = trx.selectFrom('marketplace_listings').selectAll().where('id', '=', listingId);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/**
 * Locks one cloud run for the rest of the transaction; undefined when there is none. A run's
 * end reads its state (a stop asked meanwhile turns any end into `stopped`) and writes it back:
 * the lock keeps a stop from landing between the two.
 */
export async function lockCloudRunRow(trx: Trx, dialect: DialectName, runId: number) {
  const query = trx.selectFrom('cloud_runs').selectAll().where('id', '=', runId);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}
