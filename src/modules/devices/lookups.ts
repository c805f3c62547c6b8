// What other modules need to know of devices and device groups, read here by the tables'
// owner (issue 34 §2). Each takes the caller's executor, so a check inside the caller's
// transaction sees what the transaction sees, and answers for a set of ids in one statement
// where the caller has a batch (usage samples, a webhook scope, a page of assignments).
// None of them hides a device whose deletion is under way: what they answer about (a usage
// sample, a scope, an assignment) outlives that moment, as it did when the callers joined.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** Ids per statement: well inside both engines' parameter limits. */
const ID_BATCH = 1000;

/** Runs `read` over `ids` (deduplicated) in batches, each answering its rows. */
async function inBatches<Row>(ids: readonly number[], read: (batch: number[]) => Promise<Row[]>): Promise<Row[]> {
  const unique = [...new Set(ids)];
  const rows: Row[] = [];
  for (let start = 0; start < unique.length; start += ID_BATCH) rows.push(...(await read(unique.slice(start, start + ID_BATCH))));
  return rows;
}

/** Which of `ids` are the user's devices. */
export async function ownedDeviceIds(db: Executor, userId: number, ids: readonly number[]): Promise<Set<number>> {
  const rows = await inBatches(ids, (batch) => db.selectFrom('devices').select('id').where('user_id', '=', userId).where('id', 'in', batch).execute());
  return new Set(rows.map((row) => row.id));
}

/** Which of `ids` are the user's device groups. */
export async function ownedGroupIds(db: Executor, userId: number, ids: readonly number[]): Promise<Set<number>> {
  const rows = await inBatches(ids, (batch) => db.selectFrom('device_groups').select('id').where('user_id', '=', userId).where('id', 'in', batch).execute());
  return new Set(rows.map((row) => row.id));
}

/** How many devices the user has now: all of them, those in `groupIds`, or those among `deviceIds`. */
export async function countDevices(db: Executor, userId: number, among: { groupIds?: readonly number[]; deviceIds?: readonly number[] } = {}): Promise<number> {
  let query = db.selectFrom('devices').select((eb) => eb.fn.countAll<number | string>().as('count')).where('user_id', '=', userId);
  if (among.groupIds) {
    if (among.groupIds.length === 0) return 0;
    query = query.where('group_id', 'in', [...among.groupIds]);
  }
  if (among.deviceIds) {
    if (among.deviceIds.length === 0) return 0;
    query = query.where('id', 'in', [...among.deviceIds]);
  }
  return Number((await query.executeTakeFirstOrThrow()).count);
}

export interface DeviceLabel {
  name: string;
  port: number | null;
  /** The group the device is in now, or null. */
  group: { id: number; name: string } | null;
}

/** The name, port and group of each of `ids` that is the user's device; ids that are not are absent. */
export async function deviceLabels(db: Executor, userId: number, ids: readonly number[]): Promise<Map<number, DeviceLabel>> {
  const rows = await inBatches(ids, (batch) =>
    db
      .selectFrom('devices as d')
      .leftJoin('device_groups as g', 'g.id', 'd.group_id')
      .select(['d.id', 'd.name', 'd.port', 'g.id as group_id', 'g.name as group_name'])
      .where('d.user_id', '=', userId)
      .where('d.id', 'in', batch)
      .execute(),
  );
  return new Map(
    rows.map((row) => [row.id, { name: row.name, port: row.port, group: row.group_id === null || row.group_name === null ? null : { id: row.group_id, name: row.group_name } }]),
  );
}

/** Whether the user's device is there and not being deleted (its deletion under way hides it, and what hangs off it, from its owner). */
export async function isDeviceLive(db: Executor, userId: number, deviceId: number): Promise<boolean> {
  const row = await db.selectFrom('devices').select('id').where('id', '=', deviceId).where('user_id', '=', userId).where('delete_requested_at', 'is', null).executeTakeFirst();
  return row !== undefined;
}
