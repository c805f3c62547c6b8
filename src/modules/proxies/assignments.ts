// Proxy assignments: a device has at most one active assignment (a partial unique index
// holds it); a new one ends the previous one in the same transaction.
import type { Kysely, Selectable } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { lockDeviceRow } from '../../db/locks.js';
import type { ServiceContext } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import type { IdInput } from '../../core/schema.js';
import type { Database, ProxyAssignmentsTable } from '../../db/schema.js';
import { type Clock, toIso } from '../../lib/clock.js';
import { compact } from '../../lib/compact.js';
import { type DeviceLabel, deviceLabels, findOwnedDevice } from '../devices/index.js';
import { presentProxy, type ProxyRow } from './present.js';
import { findOwnedProxy } from './proxy-service.js';
import type { CreateAssignmentInput, DeviceInput } from './schemas.js';
import { newSessionId } from './validate.js';

const ASSIGNMENT_NOT_FOUND = 'No active proxy assignment with this id.';

/** An assignment's columns as selected, with its device's name and port. */
export type AssignmentRow = Pick<Selectable<ProxyAssignmentsTable>, 'id' | 'proxy_id' | 'device_id' | 'session_type' | 'session_id' | 'active' | 'created_at'> & {
  device_name: string;
  device_port: number | null;
};

function presentAssignment(row: AssignmentRow, proxy: ProxyRow) {
  return compact({
    id: row.id,
    proxy_id: row.proxy_id,
    proxy: presentProxy(proxy),
    emulator_device_id: row.device_id,
    device_name: row.device_name,
    device_port: row.device_port,
    session_id: row.session_id,
    session_type: row.session_type,
    active: row.active === 1,
    created_at: toIso(row.created_at),
  });
}

export class AssignmentService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
  ) {}

  private selectActive(userId: number) {
    return this.db
      .selectFrom('proxy_assignments')
      .where('user_id', '=', userId)
      .where('active', '=', 1)
      .select(['id', 'proxy_id', 'device_id', 'session_type', 'session_id', 'active', 'created_at']);
  }

  /** The rows with their devices' names and ports, from the devices module; a row whose device is gone is dropped, as the join dropped it. */
  private async withDevices(userId: number, rows: Omit<AssignmentRow, 'device_name' | 'device_port'>[]): Promise<AssignmentRow[]> {
    const labels = rows.length ? await deviceLabels(this.db, userId, rows.map((row) => row.device_id)) : new Map<number, DeviceLabel>();
    return rows.flatMap((row) => {
      const device = labels.get(row.device_id);
      return device ? [{ ...row, device_name: device.name, device_port: device.port }] : [];
    });
  }

  /** An active assignment of the caller's, with its proxy; 404 otherwise. */
  async findActive(userId: number, assignmentId: number): Promise<{ row: AssignmentRow; proxy: ProxyRow }> {
    const found = await this.selectActive(userId).where('id', '=', assignmentId).executeTakeFirst();
    const [row] = found ? await this.withDevices(userId, [found]) : [];
    if (!row) throw new NotFoundError(ASSIGNMENT_NOT_FOUND);
    return { row, proxy: await findOwnedProxy(this.db, userId, row.proxy_id) };
  }

  private async listWhere(userId: number, deviceId?: number) {
    let query = this.selectActive(userId);
    if (deviceId !== undefined) query = query.where('device_id', '=', deviceId);
    const found = await query.orderBy('id').execute();
    const proxyIds = [...new Set(found.map((r) => r.proxy_id))];
    const [rows, proxies] = await Promise.all([
      this.withDevices(userId, found),
      proxyIds.length ? this.db.selectFrom('proxies').selectAll().where('user_id', '=', userId).where('id', 'in', proxyIds).execute() : [],
    ]);
    const byId = new Map(proxies.map((p) => [p.id, p]));
    const items = rows.flatMap((row) => {
      const proxy = byId.get(row.proxy_id);
      return proxy ? [presentAssignment(row, proxy)] : [];
    });
    return { items, total: items.length };
  }

  list(ctx: ServiceContext) {
    return this.listWhere(ctx.userId);
  }

  async forDevice(ctx: ServiceContext, { device_id: deviceId }: DeviceInput) {
    await findOwnedDevice(this.db, ctx.userId, deviceId);
    return this.listWhere(ctx.userId, deviceId);
  }

  async assign(ctx: ServiceContext, input: CreateAssignmentInput) {
    const { userId } = ctx;
    const now = this.clock.now();
    const id = await this.db.transaction().execute(async (trx) => {
      // The device lock serialises two assignments racing for one device.
      const device = await lockDeviceRow(trx, this.dialect, userId, input.emulator_device_id);
      if (!device) throw new NotFoundError('No device with this id.');
      const proxy = await findOwnedProxy(trx, userId, input.proxy_id);
      const sessionType = input.session_type ?? proxy.session_type;
      await trx
        .updateTable('proxy_assignments')
        .set({ active: 0, ended_at: now })
        .where('device_id', '=', device.id)
        .where('user_id', '=', userId)
        .where('active', '=', 1)
        .execute();
      const inserted = await trx
        .insertInto('proxy_assignments')
        .values({
          user_id: userId,
          proxy_id: proxy.id,
          device_id: device.id,
          session_type: sessionType,
          session_id: sessionType === 'sticky' ? newSessionId() : null,
          active: 1,
          created_at: now,
          ended_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return inserted.id;
    });
    const { row, proxy } = await this.findActive(userId, id);
    return presentAssignment(row, proxy);
  }

  /** Ends the assignment and answers the caller's remaining active ones. */
  async end(ctx: ServiceContext, { id: assignmentId }: IdInput) {
    const { userId } = ctx;
    const result = await this.db
      .updateTable('proxy_assignments')
      .set({ active: 0, ended_at: this.clock.now() })
      .where('id', '=', assignmentId)
      .where('user_id', '=', userId)
      .where('active', '=', 1)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new NotFoundError(ASSIGNMENT_NOT_FOUND);
    return this.listWhere(userId);
  }
}
