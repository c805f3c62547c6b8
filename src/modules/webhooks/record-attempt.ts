// The outcome of one delivery attempt, in one transaction: the delivery's new state (only
// while the attempt's lease still holds it), the endpoint's failure streak, and disabling
// the endpoint when decisions.md §4 says so.
import type { Lease } from '../../db/jobs/kind.js';
import { completeJob } from '../../db/jobs/leases.js';
import type { DeliveryHandlerDeps } from './delivery-handler.js';
import type { DeliveryPayload } from './delivery-job.js';
import { failPendingDeliveries } from './queue.js';
import { parseRetryAfter } from './rules.js';
import type { AttemptOutcome } from './transport.js';

export type AttemptResult =
  | { status: 'succeeded'; code: number; body: string }
  | { status: 'failed'; code: number | null; body: string | null; error: string; gone: boolean }
  | { status: 'retry'; code: number | null; body: string | null; error: string; retryAfterMs: number | undefined };

/** decisions.md §4: 2xx succeeds; 410 ends the delivery and disables the endpoint; a refused address ends it; anything else retries. */
export function judgeAttempt(outcome: AttemptOutcome, now: number): AttemptResult {
  if (outcome.kind === 'refused') return { status: 'failed', code: null, body: null, error: outcome.error, gone: false };
  if (outcome.kind === 'error') return { status: 'retry', code: null, body: null, error: outcome.error, retryAfterMs: undefined };
  const { status, body } = outcome;
  if (status >= 200 && status < 300) return { status: 'succeeded', code: status, body };
  if (status === 410) return { status: 'failed', code: status, body, error: 'The endpoint answered 410 Gone.', gone: true };
  const error = status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
  return { status: 'retry', code: status, body, error, retryAfterMs: parseRetryAfter(outcome.retryAfter, now) };
}

export async function recordAttempt(deps: DeliveryHandlerDeps, lease: Lease, delivery: DeliveryPayload, result: AttemptResult): Promise<void> {
  const { db, clock, config, kind } = deps;
  const now = clock.now();
  const step = delivery.schedule_step;
  const endpointId = delivery.endpoint_id;
  await db.kysely.transaction().execute(async (trx) => {
    const common = { updated_at: now, last_status_code: result.code, last_response_body: result.body };
    let set;
    if (result.status === 'succeeded') {
      set = { ...common, status: 'succeeded' as const, next_attempt_at: null, delivered_at: now, last_error: null };
    } else if (result.status === 'retry' && step + 1 < kind.retry.attempts) {
      const delay = kind.retry.delayMs(step + 1, result.retryAfterMs, deps.random);
      set = { ...common, status: 'pending' as const, schedule_step: step + 1, next_attempt_at: now + delay, last_error: result.error };
    } else {
      set = { ...common, status: result.status === 'retry' ? ('exhausted' as const) : ('failed' as const), next_attempt_at: null, last_error: result.error };
    }
    // The lease was lost (expired and claimed again, or redelivered): the holder now owns the
    // outcome, and this attempt leaves no trace beyond the request already sent.
    if (!(await completeJob(trx, kind, lease, now, (eb) => ({ ...set, attempts: eb('attempts', '+', 1) })))) return;

    if (result.status === 'succeeded') {
      await trx.updateTable('webhook_endpoints').set({ consecutive_failures: 0, first_failure_at: null, last_success_at: now }).where('id', '=', endpointId).execute();
      return;
    }
    // The endpoint row update also orders this write after (or before) a concurrent
    // disable or delete: if that came first, a retry just scheduled must not stay pending.
    const endpoint = await trx
      .updateTable('webhook_endpoints')
      .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1), first_failure_at: eb.fn.coalesce('first_failure_at', eb.val(now)) }))
      .where('id', '=', endpointId)
      .returning(['enabled', 'consecutive_failures', 'first_failure_at'])
      .executeTakeFirst();
    if (!endpoint || endpoint.enabled !== 1) {
      if (set.status === 'pending') {
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', next_attempt_at: null, last_error: endpoint ? 'The endpoint is disabled.' : 'The endpoint was deleted.' })
          .where('id', '=', lease.id)
          .execute();
      }
      return;
    }
    const gone = result.status === 'failed' && result.gone;
    const streak =
      endpoint.consecutive_failures >= config.webhookDisableAfterFailures && endpoint.first_failure_at !== null && now - endpoint.first_failure_at >= config.webhookDisableAfterMs;
    if (!gone && !streak) return;
    await trx
      .updateTable('webhook_endpoints')
      .set({ enabled: 0, disabled_reason: gone ? 'gone' : 'consecutive_failures', updated_at: now })
      .where('id', '=', endpointId)
      .execute();
    await failPendingDeliveries(trx, endpointId, gone ? 'The endpoint answered 410 Gone and was disabled.' : 'The endpoint was disabled after repeated failures.', now);
  });
}
