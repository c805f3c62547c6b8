// The one way to record an event: inside the transaction of the change it reports, so the
// change and its event commit together or not at all. The payload is serialised once here
// and its bytes are what every webhook attempt sends.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { randomHex } from '../../lib/crypto.js';

export type EventType = 'macro.started' | 'macro.completed' | 'macro.failed' | 'macro.stopped' | 'webhook.test' | `custom.${string}`;

export interface NewEvent {
  userId: number;
  type: EventType;
  data: Record<string, unknown>;
  /** The device the event concerns, for webhook scopes (groups, devices). */
  deviceId: number | null;
  at: number;
}

export async function emitEvent(trx: Transaction<Database>, event: NewEvent): Promise<{ eventId: string }> {
  const eventId = `evt_${randomHex(12)}`;
  const payload = JSON.stringify({ id: eventId, type: event.type, timestamp: new Date(event.at).toISOString(), data: event.data });
  await trx
    .insertInto('events')
    .values({ user_id: event.userId, event_id: eventId, type: event.type, device_id: event.deviceId, payload, created_at: event.at })
    .execute();
  return { eventId };
}
