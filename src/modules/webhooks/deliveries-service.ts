// The delivery log (list, read, redeliver) and custom events from the application.
import type { Kysely, Selectable } from 'kysely';
import type { ServiceContext } from '../../core/context.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { offsetOf, pageOf, pageRequest } from '../../core/paging.js';
import type { IdInput } from '../../core/schema.js';
import type { Database, WebhookDeliveriesTable } from '../../db/schema.js';
import type { Wakeup } from '../../db/wakeup.js';
import { type Clock, toIso } from '../../lib/clock.js';
import { compact } from '../../lib/compact.js';
import { groupOfDevice } from '../devices/index.js';
import { type EmitEvent, eventPayload } from '../events/index.js';
import { historyRecordId } from '../executions/index.js';
import { WEBHOOK_DELIVERY } from './delivery-job.js';
import { CUSTOM_DATA_MAX_BYTES, type CustomEventInput, type DeliveryListInput } from './schemas.js';

type DeliveryRow = Selectable<WebhookDeliveriesTable>;

function presentDelivery(row: DeliveryRow) {
  return compact({
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? toIso(row.next_attempt_at) : null,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_response_body: row.last_response_body,
    delivered_at: toIso(row.delivered_at),
    created_at: toIso(row.created_at),
  });
}

export class WebhookDeliveryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly wakeup: Wakeup,
    private readonly emit: EmitEvent,
  ) {}

  async list(ctx: ServiceContext, filter: DeliveryListInput) {
    const page = pageRequest(filter);
    let query = this.db.selectFrom('webhook_deliveries').where('user_id', '=', ctx.userId);
    if (filter.endpoint_id !== undefined) query = query.where('endpoint_id', '=', filter.endpoint_id);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    const [{ count }, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
      query.selectAll().orderBy('id', 'desc').limit(page.pageSize).offset(offsetOf(page)).execute(),
    ]);
    return pageOf(page, Number(count), rows.map(presentDelivery));
  }

  async get(ctx: ServiceContext, { id }: IdInput) {
    const row = await this.find(ctx.userId, id);
    const payload = await eventPayload(this.db, row.event_pk);
    if (payload === undefined) throw notFound();
    return { ...presentDelivery(row), payload };
  }

  private async find(userId: number, id: number): Promise<DeliveryRow> {
    const row = await this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  /** The same delivery (same event id, same bytes) back to pending with a fresh schedule; `attempts` keeps counting. */
  async redeliver(ctx: ServiceContext, { id }: IdInput) {
    const { userId } = ctx;
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const delivery = await trx.selectFrom('webhook_deliveries').select(['endpoint_id']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (!delivery) throw notFound();
      const endpoint = await trx.selectFrom('webhook_endpoints').select('enabled').where('id', '=', delivery.endpoint_id).where('user_id', '=', userId).executeTakeFirst();
      if (!endpoint) throw new ConflictError('endpoint_deleted', 'The endpoint of this delivery was deleted, so it cannot be redelivered.');
      if (endpoint.enabled !== 1) throw new ConflictError('endpoint_disabled', 'The endpoint of this delivery is disabled. Enable it (PUT with enabled: true), then redeliver.');
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', schedule_step: 0, next_attempt_at: now, locked_until: null, locked_by: null, delivered_at: null, updated_at: now })
        .where('id', '=', id)
        .execute();
      await this.wakeup.notify(trx, WEBHOOK_DELIVERY);
    });
    return presentDelivery(await this.find(userId, id));
  }

  /** A script's event, relayed by the application: `{device_id, group_id, execution_id, data}`. */
  async emitCustom(ctx: ServiceContext, input: CustomEventInput) {
    const { userId } = ctx;
    if (Buffer.byteLength(JSON.stringify(input.data)) > CUSTOM_DATA_MAX_BYTES) {
      throw new ValidationError([{ path: 'body.data', message: `must be at most ${CUSTOM_DATA_MAX_BYTES} bytes as JSON` }]);
    }
    return this.db.transaction().execute(async (trx) => {
      let groupId: number | null = null;
      if (input.device_id !== undefined) {
        const group = await groupOfDevice(trx, userId, input.device_id);
        if (group === undefined) throw new ValidationError([{ path: 'body.device_id', message: 'is not one of your devices' }]);
        groupId = group;
      }
      if (input.execution_id !== undefined && (await historyRecordId(trx, userId, input.execution_id)) === undefined) {
        throw new ValidationError([{ path: 'body.execution_id', message: 'is not one of your runs' }]);
      }
      const data = { device_id: input.device_id ?? null, group_id: groupId, execution_id: input.execution_id ?? null, data: input.data };
      const { eventId, deliveries } = await this.emit(trx, { userId, type: input.type, data, deviceId: input.device_id ?? null, at: this.clock.now() });
      return { event_id: eventId, deliveries };
    });
  }
}

const notFound = () => new NotFoundError('No webhook delivery with this id.');
