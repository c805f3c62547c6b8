// The one way to record an event: inside the transaction of the change it reports, so the
// change, its event and the event's webhook deliveries commit together or not at all. The
// payload is serialised once here and its bytes are what every webhook attempt sends.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { randomHex } from '../../lib/crypto.js';
import { fanOut } from '../webhooks/fan-out.js';
import { ringDeliveryBell } from '../webhooks/nudge.js';

export type EventType = 'macro.started' | 'macro.completed' | 'macro.failed' | 'macro.stopped' | 'webhook.test' | `custom.${string}`;

export interface NewEvent {
  userId: number;
  type: EventType;
  data: Record<string, unknown>;
  /** The device the event concerns, for webhook scopes (groups, devices). */
  deviceId: number | null;
  at: number;
  /** `webhook.test` only: the one endpoint that receives it, regardless of subscriptions. */
  endpointId?: number;
}

export async function emitEvent(trx: Transaction<Database>, event: NewEvent): Promise<{ eventId: string; deliveries: number }> {
  const eventId = `evt_${randomHex(12)}`;
  const payload = JSON.stringify({ id: eventId, type: event.type, timestamp: new Date(event.at).toISOString(), data: event.data });
  const { id } = await trx
    .insertInto('events')
    .values({ user_id: event.userId, event_id: eventId, type: event.type, device_id: event.deviceId, payload, created_at: event.at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const deliveries = await fanOut(trx, { eventPk: id, eventId, userId: event.userId, type: event.type, deviceId: event.deviceId, at: event.at, endpointId: event.endpointId });
  // Rung before the commit: a worker that looks too early finds nothing yet and looks again
  // shortly after (see the worker), and on SQLite its query waits for this transaction.
  if (deliveries > 0) ringDeliveryBell();
  return { eventId, deliveries };
}
