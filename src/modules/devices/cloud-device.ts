// Finding one of the caller's cloud devices, the first check of every cloud-device route and
// service: someone else's or a missing device is 404 `not_found`; a device on the user's own
// machine is 404 `not_a_cloud_device` (decisions.md §1). A device whose deletion is under way
// is already gone for its owner.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { lockDeviceRow } from '../../db/locks.js';
import type { Database, DevicesTable } from '../../db/schema.js';
import { NotACloudDeviceError, NotFoundError } from '../../core/errors.js';

export type DeviceRow = Selectable<DevicesTable>;

function check(row: DeviceRow | undefined): DeviceRow {
  if (!row || row.delete_requested_at !== null) throw new NotFoundError('No device with this id.');
  if (!row.is_hosted) throw new NotACloudDeviceError();
  return row;
}

export async function findCloudDevice(db: Kysely<Database> | Transaction<Database>, userId: number, deviceId: number): Promise<DeviceRow> {
  return check(await db.selectFrom('devices').selectAll().where('id', '=', deviceId).where('user_id', '=', userId).executeTakeFirst());
}

/** The same, holding the device row's lock until the transaction ends (leases and runs exclude each other through it). */
export async function lockCloudDevice(trx: Transaction<Database>, dialect: DialectName, userId: number, deviceId: number): Promise<DeviceRow> {
  return check(await lockDeviceRow(trx, dialect, userId, deviceId));
}
