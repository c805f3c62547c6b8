// Device groups. `no_of_devices` is counted when read, so it is right at every moment (a cloud
// device whose deletion is under way no longer counts).
import { type Kysely, type Selectable, sql } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database, DeviceGroupsTable } from '../../db/schema.js';
import { containsInsensitive, textSortKey } from '../../db/text.js';
import type { ServiceContext } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import { offsetOf, pageOf, pageRequest, parseSort } from '../../core/paging.js';
import type { IdInput } from '../../core/schema.js';
import { type Clock, toIso } from '../../lib/clock.js';
import { compact } from '../../lib/compact.js';
import type { CreateGroupInput, GROUP_SORTS, GroupListInput, UpdateGroupInput } from './schemas.js';

type GroupSort = (typeof GROUP_SORTS)[number];

/** A group as selected, with its devices counted when read. */
type GroupRow = Omit<Selectable<DeviceGroupsTable>, 'user_id'> & { no_of_devices: number };

function presentGroup(row: GroupRow) {
  return compact({
    id: row.id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    no_of_devices: Number(row.no_of_devices),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  });
}

export class GroupService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
  ) {}

  private selectGroups(userId: number) {
    return this.db
      .selectFrom('device_groups as g')
      .where('g.user_id', '=', userId)
      .select(['g.id', 'g.name', 'g.description', 'g.kind', 'g.created_at', 'g.updated_at'])
      .select(sql<number>`(select count(*) from devices d where d.group_id = g.id and d.delete_requested_at is null)`.as('no_of_devices'));
  }

  private async read(userId: number, groupId: number) {
    const row = await this.selectGroups(userId).where('g.id', '=', groupId).executeTakeFirst();
    if (!row) throw new NotFoundError('No device group with this id.');
    return presentGroup(row);
  }

  async create(ctx: ServiceContext, input: CreateGroupInput) {
    const { userId } = ctx;
    const now = this.clock.now();
    const { id } = await this.db
      .insertInto('device_groups')
      .values({ user_id: userId, name: input.name.trim(), description: input.description ?? null, kind: input.kind, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return this.read(userId, id);
  }

  async update(ctx: ServiceContext, { id: groupId, ...input }: IdInput & UpdateGroupInput) {
    const { userId } = ctx;
    const result = await this.db
      .updateTable('device_groups')
      .set({
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        updated_at: this.clock.now(),
      })
      .where('id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new NotFoundError('No device group with this id.');
    return this.read(userId, groupId);
  }

  /** One of the caller's groups; someone else's or a missing one is 404. */
  async get(ctx: ServiceContext, { id }: IdInput) {
    return this.read(ctx.userId, id);
  }

  /** The ids of the group's cloud devices now (a device being deleted is gone), in id order; the scheduler fans out over them. */
  async cloudDeviceIds(ctx: ServiceContext, { id }: IdInput): Promise<number[]> {
    const rows = await this.db
      .selectFrom('devices')
      .select('id')
      .where('group_id', '=', id)
      .where('user_id', '=', ctx.userId)
      .where('is_hosted', '=', 1)
      .where('delete_requested_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Its devices stay, with no group (ON DELETE SET NULL). */
  async remove(ctx: ServiceContext, { id: groupId }: IdInput): Promise<void> {
    const result = await this.db.deleteFrom('device_groups').where('id', '=', groupId).where('user_id', '=', ctx.userId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new NotFoundError('No device group with this id.');
  }

  async list(ctx: ServiceContext, filter: GroupListInput) {
    const page = pageRequest(filter);
    let query = this.selectGroups(ctx.userId);
    if (filter.name) query = query.where(containsInsensitive('g.name', filter.name));
    if (filter.description) query = query.where(containsInsensitive('g.description', filter.description));
    const { field, direction } = parseSort<GroupSort>(filter.sort, 'name');
    const sortKey = {
      name: textSortKey('g.name', this.dialect),
      no_of_devices: sql`(select count(*) from devices d where d.group_id = g.id and d.delete_requested_at is null)`,
      created_at: sql.ref('g.created_at'),
      updated_at: sql.ref('g.updated_at'),
    }[field];
    const [{ total }, rows] = await Promise.all([
      query.clearSelect().select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      // Ties are broken by id, so consecutive pages never repeat or skip a group.
      query.orderBy(sortKey, direction).orderBy('g.id', direction).limit(page.pageSize).offset(offsetOf(page)).execute(),
    ]);
    return pageOf(page, Number(total), rows.map(presentGroup));
  }
}
