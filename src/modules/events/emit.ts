// The one way to record an event: inside the transaction of the change it reports, so the
// change, its event and whatever the event sets off (webhook deliveries) commit together or
// not at all. The payload is serialised once here and its bytes are what every webhook
// attempt sends. What an event sets off is handed to the events module when it is built
// (build-modules.ts), so events depends on none of the modules that react to it.
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
  /** `webhook.test` only: the one endpoint that receives it, regardless of subscriptions. */
  endpointId?: number;
}

/** An event as stored, handed to subscribers. */
export interface RecordedEvent extends Omit<NewEvent, 'data'> {
  /** The events row's primary key. */
  pk: number;
  eventId: string;
}

/** Runs inside the recording transaction; answers how many deliveries it queued for the event. */
export type EventSubscriber = (trx: Transaction<Database>, event: RecordedEvent) => Promise<number>;

/** Records an event in the caller's transaction and runs every subscriber in it. */
export type EmitEvent = (trx: Transaction<Database>, event: NewEvent) => Promise<{ eventId: string; deliveries: number }>;

/** The emit function of one built events module: it runs exactly the subscribers it was built with. */
export function eventEmitter(subscribers: readonly EventSubscriber[]): EmitEvent {
  return async (trx, event) => {
    const eventId = `evt_${randomHex(12)}`;
    const payload = JSON.stringify({ id: eventId, type: event.type, timestamp: new Date(event.at).toISOString(), data: event.data });
    const { id } = await trx
      .insertInto('events')
      .values({ user_id: event.userId, event_id: eventId, type: event.type, device_id: event.deviceId, payload, created_at: event.at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const recorded: RecordedEvent = { pk: id, eventId, userId: event.userId, type: event.type, deviceId: event.deviceId, at: event.at, endpointId: event.endpointId };
    let deliveries = 0;
    for (const subscriber of subscribers) deliveries += await subscriber(trx, recorded);
    return { eventId, deliveries };
  };
}
