// The one way to record an event: inside the transaction of the change it reports, so the
// change, its event and whatever the event sets off (webhook deliveries) commit together or
// not at all. The payload is serialised once here and its bytes are what every webhook
// attempt sends. What an event sets off is registered by the modules that care (webhooks
// registers its fan-out when it is built), so events depends on none of them.
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

// By name, so building a module again (tests build many apps in one process) replaces its
// subscriber instead of running it twice. Any app's events reach the one registered last, so
// a subscriber must act the same whichever app registered it: it works through the
// transaction it is given (and the wake-up, whose signal is the same for every app).
const subscribers = new Map<string, EventSubscriber>();

/** Registers what `name` does with every event recorded from now on, in the event's transaction. */
export function subscribeToEvents(name: string, subscriber: EventSubscriber): void {
  subscribers.set(name, subscriber);
}

export async function emitEvent(trx: Transaction<Database>, event: NewEvent): Promise<{ eventId: string; deliveries: number }> {
  const eventId = `evt_${randomHex(12)}`;
  const payload = JSON.stringify({ id: eventId, type: event.type, timestamp: new Date(event.at).toISOString(), data: event.data });
  const { id } = await trx
    .insertInto('events')
    .values({ user_id: event.userId, event_id: eventId, type: event.type, device_id: event.deviceId, payload, created_at: event.at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const recorded: RecordedEvent = { pk: id, eventId, userId: event.userId, type: event.type, deviceId: event.deviceId, at: event.at, endpointId: event.endpointId };
  let deliveries = 0;
  for (const subscriber of subscribers.values()) deliveries += await subscriber(trx, recorded);
  return { eventId, deliveries };
}
