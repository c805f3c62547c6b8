// `last_used_at` is written after a request passes every check. Writes are batched (one
// UPDATE per key per second at most) so the hot path does no write; pending values are
// flushed on shutdown and before keys are listed, so none are lost.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export class LastUsedRecorder {
  private pending = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (error: unknown) => void,
    private readonly intervalMs = 1000,
  ) {}

  mark(keyId: number, at: number): void {
    const previous = this.pending.get(keyId);
    if (previous === undefined || at > previous) this.pending.set(keyId, at);
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush().catch(this.onError), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes everything marked so far. Concurrent calls are chained, never interleaved. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.writePending());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async writePending(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    try {
      for (const [keyId, at] of batch) {
        await this.db
          .updateTable('api_keys')
          .set({ last_used_at: at })
          .where('id', '=', keyId)
          .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
          .execute();
        batch.delete(keyId);
      }
    } catch (error) {
      // Keep what was not written for the next flush rather than dropping it.
      for (const [keyId, at] of batch) this.mark(keyId, at);
      throw error;
    }
  }
}
