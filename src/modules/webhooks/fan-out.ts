// Events into deliveries, inside the transaction that records the event: the event and its
// deliveries commit together, so a crash between them can lose neither. build-modules.ts hands
// `webhookDeliveries` to the events module as a subscriber (events does not know about webhooks).
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Wakeup } from '../../db/wakeup.js';
import { groupOfDevice } from '../devices/index.js';
import type { EventSubscriber, RecordedEvent } from '../events/index.js';
import { WEBHOOK_DELIVERY } from './delivery-job.js';
import { type Scope, scopeMatches, subscribes } from './rules.js';

export function scopeOf(row: { scope_mode: Scope['mode']; scope_group_ids: string; scope_device_ids: string }): Scope {
  if (row.scope_mode === 'groups') return { mode: 'groups', groupIds: JSON.parse(row.scope_group_ids) as number[] };
  if (row.scope_mode === 'devices') return { mode: 'devices', deviceIds: JSON.parse(row.scope_device_ids) as number[] };
  return { mode: 'all' };
}

/** The events subscriber that queues an event's deliveries and wakes the delivery workers when it commits. */
export function webhookDeliveries(wakeup: Wakeup): EventSubscriber {
  return async (trx, event) => {
    const queued = await fanOut(trx, event);
    if (queued > 0) await wakeup.notify(trx, WEBHOOK_DELIVERY);
    return queued;
  };
}

/**
 * Queues one delivery per matching enabled endpoint (`webhook.test`: its one endpoint,
 * whatever it subscribes to); returns how many. The first attempt is due at once.
 */
export async function fanOut(trx: Transaction<Database>, event: RecordedEvent): Promise<number> {
  let query = trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'event_types', 'scope_mode', 'scope_group_ids', 'scope_device_ids'])
    .where('user_id', '=', event.userId)
    .where('enabled', '=', 1);
  if (event.endpointId !== undefined) query = query.where('id', '=', event.endpointId);
  const endpoints = await query.execute();
  if (endpoints.length === 0) return 0;

  let targets: number[];
  if (event.endpointId !== undefined) {
    targets = endpoints.map((endpoint) => endpoint.id);
  } else {
    // Scopes follow the device's group as it is now.
    const groupId =
      event.deviceId === null
        ? null
        : ((await groupOfDevice(trx, event.userId, event.deviceId)) ?? null);
    targets = endpoints
      .filter((endpoint) => subscribes(JSON.parse(endpoint.event_types) as string[], event.type) && scopeMatches(scopeOf(endpoint), event.deviceId, groupId))
      .map((endpoint) => endpoint.id);
  }
  if (targets.length === 0) return 0;
  await trx
    .insertInto('webhook_deliveries')
    .values(
      targets.map((endpointId) => ({
        user_id: event.userId,
        endpoint_id: endpointId,
        event_pk: event.pk,
        event_id: event.eventId,
        event_type: event.type,
        status: 'pending' as const,
        next_attempt_at: event.at,
        created_at: event.at,
        updated_at: event.at,
      })),
    )
    .execute();
  return targets.length;
}
