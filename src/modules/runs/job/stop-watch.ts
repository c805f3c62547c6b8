// How a stop reaches the worker running the run: the stop marks the run `stopping` and sends
// the CLOUD_RUN_STOP wake-up; every run worker then looks, in one query, for `stopping` runs
// among those it holds and aborts them. It also looks every second while it holds runs, the
// fallback for a wake-up that never arrives (another process on SQLite, a dropped listener).
import type { Db } from '../../../db/database.js';
import { CLOUD_RUN_STOP } from './run-job.js';

const POLL_MS = 1_000;

export class StopWatch {
  private readonly held = new Map<number, AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private checking = false;
  private again = false;

  constructor(private readonly db: Db) {}

  start(): void {
    this.unsubscribe ??= this.db.wakeup.subscribe(CLOUD_RUN_STOP, () => void this.check());
  }

  /** Set once the worker is shutting down and has aborted the runs it held. */
  closing = false;

  /** Shutting down: aborts every held run (each ends failed, "the worker shut down"). */
  abortAll(): void {
    this.closing = true;
    for (const controller of this.held.values()) controller.abort(new Error('the worker shut down'));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  watch(runId: number): AbortController {
    const controller = new AbortController();
    this.held.set(runId, controller);
    this.timer ??= setInterval(() => void this.check(), POLL_MS);
    return controller;
  }

  unwatch(runId: number): void {
    this.held.delete(runId);
    if (this.held.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Aborts the held runs that are being stopped. */
  async check(): Promise<void> {
    if (this.checking) {
      // A stop that arrived during a look must not wait for the next poll.
      this.again = true;
      return;
    }
    if (this.held.size === 0) return;
    this.checking = true;
    try {
      const rows = await this.db.kysely.selectFrom('cloud_runs').select('id').where('id', 'in', [...this.held.keys()]).where('state', '=', 'stopping').execute();
      for (const { id } of rows) this.held.get(id)?.abort(new Error('stopped on request'));
    } catch {
      // The next look (a second later) tries again.
    } finally {
      this.checking = false;
    }
    if (this.again) {
      this.again = false;
      await this.check();
    }
  }
}
