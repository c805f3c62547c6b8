// Deletes idempotency rows that are no longer live, now and then. Correctness does not wait
// for it (a claim takes over a dead row of its key in the same statement), so it is a plain
// timer in every process rather than a leased job: the delete is idempotent, cheap on its
// index, and two processes running it at once only race to delete the same rows.
import type { BackgroundWorker } from '../../core/worker.js';
import type { IdempotentRequests } from './store.js';

export const IDEMPOTENCY_SWEEP_MS = 5 * 60_000;

export interface SweepLog {
  warn(object: object, message: string): void;
}

export function idempotencySweeper(requests: IdempotentRequests, log: SweepLog, everyMs = IDEMPOTENCY_SWEEP_MS): BackgroundWorker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  return {
    name: 'idempotency.sweep',
    start() {
      timer ??= setInterval(() => {
        running = requests.sweepExpired().catch((error: unknown) => log.warn({ err: error }, 'sweeping expired idempotency keys failed; retrying later'));
      }, everyMs);
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
