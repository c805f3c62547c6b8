// The webhook delivery job, side by side (listed with every kind in src/workers.ts):
//   table    webhook_deliveries: the deliveries are the queue
//   due      status pending and next_attempt_at passed (the partial index webhook_deliveries_due_idx)
//   payload  the event's stored bytes (events.payload), sent unchanged on every attempt, and
//            the endpoint's URL and secret as they are at attempt time
//   lease    60 s, not renewed: the claim commits before the HTTP call, and the result is
//            written only while the claim's token still holds the row
//   timeout  5 s connect, 15 s per attempt (transport.ts), well inside the lease
//   retry    WEBHOOK_RETRY_SCHEDULE, ±20% jitter, Retry-After honoured up to twice the delay
//   lapse    retry: a worker lost mid-attempt leaves its lease to run out and the next claim
//            sends again with the same webhook-id (at least once, never lost)
//   workers  WEBHOOK_CONCURRENCY attempts per process; WEBHOOK_POLL_MS when no wake-up arrives
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { defineJobKind, type Lease } from '../../db/jobs/kind.js';
import type { Database } from '../../db/schema.js';
import { nextDelayMs } from './rules.js';
import { ATTEMPT_TIMEOUT_MS } from './transport.js';

export const WEBHOOK_DELIVERY = 'webhook.delivery';
export const DELIVERY_LEASE_MS = 60_000;

export type DeliverySettings = Pick<Config, 'webhookRetrySchedule' | 'webhookConcurrency' | 'webhookPollMs'>;

export function webhookDeliveryJob(config: DeliverySettings) {
  const schedule = config.webhookRetrySchedule;
  return defineJobKind({
    name: WEBHOOK_DELIVERY,
    table: 'webhook_deliveries',
    due: (eb, now) => eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
    order: 'next_attempt_at',
    payload: readDelivery,
    leaseMs: DELIVERY_LEASE_MS,
    renewEveryMs: null,
    timeoutMs: ATTEMPT_TIMEOUT_MS,
    retry: { attempts: schedule.length, delayMs: (step, retryAfterMs, random) => nextDelayMs(schedule[step], retryAfterMs, random) },
    onLapse: 'retry',
    concurrency: config.webhookConcurrency,
    pollMs: config.webhookPollMs,
  });
}

export type WebhookDeliveryJob = ReturnType<typeof webhookDeliveryJob>;

export type DeliveryPayload = NonNullable<Awaited<ReturnType<typeof readDelivery>>>;

/**
 * The delivery, its event's bytes and its endpoint (absent when deleted), while the lease holds
 * a pending row: one statement per attempt, the event's bytes joined from the events module's
 * table (a kept exception, decision 0028: split, every attempt would take two).
 */
async function readDelivery(db: Kysely<Database>, lease: Lease) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_pk')
    .leftJoin('webhook_endpoints as ep', 'ep.id', 'd.endpoint_id')
    .select(['d.endpoint_id', 'd.event_id', 'd.schedule_step', 'e.payload', 'ep.url', 'ep.secret_encrypted', 'ep.enabled'])
    .where('d.id', '=', lease.id)
    .where('d.locked_by', '=', lease.token)
    .where('d.status', '=', 'pending')
    .executeTakeFirst();
}
