// The delivery worker. Job catalogue entry, side by side:
//   payload  the event's stored bytes (events.payload), sent unchanged on every attempt
//   lease    60 s per claim (`locked_until`, `locked_by` = a token unique to the claim);
//            the claim commits before the HTTP call, the result is written only while the
//            token still holds the row, so a lost lease means the result is dropped and the
//            next holder sends again (at least once, never lost)
//   retry    WEBHOOK_RETRY_SCHEDULE, ±20% jitter, Retry-After honoured up to twice the delay
//   timeout  5 s connect, 15 s per attempt (transport.ts)
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { claimDueDeliveries } from '../../db/queue.js';
import type { Clock } from '../../lib/clock.js';
import { decryptSecret } from '../../lib/crypto.js';
import { onDeliveryBell } from './nudge.js';
import { failPendingDeliveries } from './queue.js';
import { nextDelayMs, parseRetryAfter, signature } from './rules.js';
import type { AttemptOutcome, WebhookTransport } from './transport.js';

export const LEASE_MS = 60_000;
/** After a bell finds nothing (the emitting transaction had not committed yet), look once more this soon. */
const RECHECK_MS = 25;

export interface WorkerLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface DeliveryWorkerOptions {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'secretKey' | 'webhookRetrySchedule' | 'webhookDisableAfterFailures' | 'webhookDisableAfterMs' | 'webhookPollMs' | 'webhookConcurrency'>;
  transport: WebhookTransport;
  log: WorkerLog;
  /** Names this worker in `locked_by`; defaults to host and process id. */
  name?: string;
  /** Jitter source; tests make it fixed. */
  random?: () => number;
  leaseMs?: number;
}

type Result =
  | { status: 'succeeded'; code: number; body: string }
  | { status: 'failed'; code: number | null; body: string | null; error: string; gone: boolean }
  | { status: 'retry'; code: number | null; body: string | null; error: string; retryAfterMs: number | undefined };

export class DeliveryWorker {
  private readonly name: string;
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;
  private loopDone: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private rung = false;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.name = options.name ?? `${hostname()}:${process.pid}`;
  }

  /** Claims what is due now and delivers it; resolves when those attempts are recorded. For tests and tools. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim(this.options.config.webhookConcurrency);
    await Promise.all(claimed.map(({ id, token }) => this.deliver(id, token)));
    return claimed.length;
  }

  start(): void {
    if (this.loopDone) return;
    this.unsubscribe = onDeliveryBell(() => {
      this.rung = true;
      this.wake?.();
    });
    this.loopDone = this.loop();
  }

  /** Stops claiming and waits for the attempts in flight to be recorded (each ends within the attempt time-out). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    this.wake?.();
    await this.loopDone;
    await Promise.all(this.inFlight);
  }

  private async loop(): Promise<void> {
    const { webhookConcurrency: concurrency, webhookPollMs: pollMs } = this.options.config;
    while (!this.stopping) {
      const wasRung = this.rung;
      this.rung = false;
      const free = concurrency - this.inFlight.size;
      let claimed = 0;
      if (free > 0) {
        try {
          const batch = await this.claim(free);
          claimed = batch.length;
          for (const { id, token } of batch) {
            const attempt = this.deliver(id, token).finally(() => {
              this.inFlight.delete(attempt);
              this.wake?.();
            });
            this.inFlight.add(attempt);
          }
        } catch (error) {
          this.options.log.warn({ err: error }, 'claiming webhook deliveries failed; retrying at the next poll');
        }
      }
      if (this.stopping) break;
      // A full batch suggests more is due: go again at once (as slots free up).
      if (free > 0 && claimed === free) continue;
      await this.sleep(wasRung && claimed === 0 ? RECHECK_MS : pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
      if (this.rung || this.stopping) this.wake();
    });
  }

  private async claim(limit: number): Promise<{ id: number; token: string }[]> {
    const token = `${this.name}:${randomBytes(6).toString('hex')}`;
    const ids = await claimDueDeliveries(this.options.db.kysely, this.options.db.dialect, { now: this.options.clock.now(), leaseMs: this.options.leaseMs ?? LEASE_MS, token, limit });
    return ids.map((id) => ({ id, token }));
  }

  /** One attempt of one claimed delivery. Never throws: a failure to record leaves the lease to expire and the row to be retried. */
  private async deliver(id: number, token: string): Promise<void> {
    try {
      await this.attempt(id, token);
    } catch (error) {
      this.options.log.error({ err: error, delivery_id: id }, 'a webhook attempt could not be recorded; it will be retried when its lease expires');
    }
  }

  private async attempt(id: number, token: string): Promise<void> {
    const { db, clock } = this.options;
    const row = await db.kysely
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as e', 'e.id', 'd.event_pk')
      .leftJoin('webhook_endpoints as ep', 'ep.id', 'd.endpoint_id')
      .select(['d.id', 'd.endpoint_id', 'd.event_id', 'd.schedule_step', 'd.status', 'd.locked_by', 'e.payload', 'ep.url', 'ep.secret_encrypted', 'ep.enabled'])
      .where('d.id', '=', id)
      .executeTakeFirst();
    if (!row || row.status !== 'pending' || row.locked_by !== token) return;
    if (row.url === null || row.secret_encrypted === null) return this.endWithoutAttempt(id, token, 'The endpoint was deleted.');
    if (row.enabled !== 1) return this.endWithoutAttempt(id, token, 'The endpoint is disabled.');

    const secretKey = this.options.config.secretKey;
    if (!secretKey) throw new Error('SECRET_KEY is not set: webhook secrets cannot be read');
    // Read at attempt time: a regenerated secret signs the very next attempt.
    const secret = decryptSecret(row.secret_encrypted, secretKey);
    const timestamp = Math.floor(clock.now() / 1000);
    const outcome = await this.options.transport.send({
      url: row.url,
      body: row.payload,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'automation-service-webhooks/1',
        'webhook-id': row.event_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(secret, row.event_id, timestamp, row.payload),
      },
    });
    await this.record(id, row.endpoint_id, token, row.schedule_step, judge(outcome, clock.now()));
  }

  private async endWithoutAttempt(id: number, token: string, reason: string): Promise<void> {
    const now = this.options.clock.now();
    await this.options.db.kysely
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', next_attempt_at: null, last_error: reason, locked_until: null, locked_by: null, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', token)
      .execute();
  }

  private async record(id: number, endpointId: number, token: string, step: number, result: Result): Promise<void> {
    const { db, clock, config } = this.options;
    const now = clock.now();
    const schedule = config.webhookRetrySchedule;
    await db.kysely.transaction().execute(async (trx) => {
      const common = { locked_until: null, locked_by: null, updated_at: now, last_status_code: result.code, last_response_body: result.body };
      let set;
      if (result.status === 'succeeded') {
        set = { ...common, status: 'succeeded' as const, next_attempt_at: null, delivered_at: now, last_error: null };
      } else if (result.status === 'retry' && step + 1 < schedule.length) {
        const delay = nextDelayMs(schedule[step + 1], result.retryAfterMs, this.options.random ?? Math.random);
        set = { ...common, status: 'pending' as const, schedule_step: step + 1, next_attempt_at: now + delay, last_error: result.error };
      } else {
        set = { ...common, status: result.status === 'retry' ? ('exhausted' as const) : ('failed' as const), next_attempt_at: null, last_error: result.error };
      }
      const written = await trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({ ...set, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where('locked_by', '=', token)
        .where('locked_until', '>', now)
        .executeTakeFirst();
      // The lease was lost (expired and claimed again, or redelivered): the holder now owns
      // the outcome, and this attempt leaves no trace beyond the request already sent.
      if (Number(written.numUpdatedRows) === 0) return;

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
            .where('id', '=', id)
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
}

/** decisions.md §4: 2xx succeeds; 410 ends the delivery and disables the endpoint; a refused address ends it; anything else retries. */
function judge(outcome: AttemptOutcome, now: number): Result {
  if (outcome.kind === 'refused') return { status: 'failed', code: null, body: null, error: outcome.error, gone: false };
  if (outcome.kind === 'error') return { status: 'retry', code: null, body: null, error: outcome.error, retryAfterMs: undefined };
  const { status, body } = outcome;
  if (status >= 200 && status < 300) return { status: 'succeeded', code: status, body };
  if (status === 410) return { status: 'failed', code: status, body, error: 'The endpoint answered 410 Gone.', gone: true };
  const error = status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
  return { status: 'retry', code: status, body, error, retryAfterMs: parseRetryAfter(outcome.retryAfter, now) };
}
