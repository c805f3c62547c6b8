// What the delivery job does with one claimed delivery: sign the event's stored bytes with
// the endpoint's current secret, send one attempt, and record the outcome while the lease
// still holds the row (record-attempt.ts). The loop around it is the generic job worker.
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Lease } from '../../db/jobs/kind.js';
import { completeJob } from '../../db/jobs/leases.js';
import type { JobHandlers } from '../../db/jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import { decryptSecret } from '../../lib/crypto.js';
import type { WebhookDeliveryJob } from './delivery-job.js';
import { judgeAttempt, recordAttempt } from './record-attempt.js';
import { signature } from './rules.js';
import type { WebhookTransport } from './transport.js';

export interface DeliveryHandlerDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'secretKey' | 'webhookDisableAfterFailures' | 'webhookDisableAfterMs'>;
  kind: WebhookDeliveryJob;
  transport: WebhookTransport;
  /** Jitter source; tests make it fixed. */
  random: () => number;
}

export function deliveryHandlers(deps: DeliveryHandlerDeps): JobHandlers<WebhookDeliveryJob> {
  const { db, clock, kind } = deps;

  async function endWithoutAttempt(lease: Lease, reason: string): Promise<void> {
    const now = clock.now();
    await completeJob(db.kysely, kind, lease, now, { status: 'failed', next_attempt_at: null, last_error: reason, updated_at: now });
  }

  return {
    async run({ lease, payload: delivery }) {
      if (delivery.url === null || delivery.secret_encrypted === null) return endWithoutAttempt(lease, 'The endpoint was deleted.');
      if (delivery.enabled !== 1) return endWithoutAttempt(lease, 'The endpoint is disabled.');
      const secretKey = deps.config.secretKey;
      if (!secretKey) throw new Error('SECRET_KEY is not set: webhook secrets cannot be read');
      // Read at attempt time: a regenerated secret signs the very next attempt.
      const secret = decryptSecret(delivery.secret_encrypted, secretKey);
      const timestamp = Math.floor(clock.now() / 1000);
      const outcome = await deps.transport.send({
        url: delivery.url,
        body: delivery.payload,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'automation-service-webhooks/1',
          'webhook-id': delivery.event_id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature(secret, delivery.event_id, timestamp, delivery.payload),
        },
      });
      await recordAttempt(deps, lease, delivery, judgeAttempt(outcome, clock.now()));
    },
  };
}
