// Ships a run's log lines to a sink in batches (decisions.md §10): a batch goes when 200
// lines are waiting or 500 ms after the previous batch, whichever comes first. The first
// line after a quiet spell goes at once (the 500 ms are counted from the previous batch),
// so a run's first line is readable as soon as it is written. One batch is in flight at a
// time, so batches land in the order the lines came; a sink that fails is retried before a
// batch is given up (and reported). Past a high-water mark `push` answers false and the
// producer should pause its streams until `drained()` resolves: a run that prints faster
// than the store takes lines is slowed down, never buffered without bound.
import type { LogSink } from './log-sink.js';

export interface LogShipperOptions {
  intervalMs?: number;
  batchLines?: number;
  /** Lines waiting at which `push` answers false. */
  highWaterLines?: number;
  /** Pauses before each retry of a failed append. */
  retryDelaysMs?: number[];
  /** A batch the sink refused after every retry. */
  onLost?: (error: unknown, lines: string[]) => void;
  now?: () => number;
}

export const LOG_BATCH_INTERVAL_MS = 500;
export const LOG_BATCH_LINES = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class LogShipper {
  private readonly intervalMs: number;
  private readonly batchLines: number;
  private readonly highWater: number;
  private readonly retryDelaysMs: number[];
  private readonly now: () => number;
  private pending: string[] = [];
  private lastShipAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private drainWaiters: (() => void)[] = [];
  private closing = false;
  /** Lines the sink has stored, and lines given up. */
  shipped = 0;
  lost = 0;

  constructor(
    private readonly sink: LogSink,
    private readonly options: LogShipperOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? LOG_BATCH_INTERVAL_MS;
    this.batchLines = options.batchLines ?? LOG_BATCH_LINES;
    this.highWater = options.highWaterLines ?? 5000;
    this.retryDelaysMs = options.retryDelaysMs ?? [200, 1000, 3000];
    this.now = options.now ?? (() => performance.now());
  }

  /** Queues a line; false when the producer should pause until `drained()`. */
  push(line: string): boolean {
    if (this.closing) throw new Error('log shipper is closed');
    this.pending.push(line);
    this.schedule();
    return this.pending.length < this.highWater;
  }

  /** Resolves once the backlog is under half the high-water mark. */
  drained(): Promise<void> {
    if (this.pending.length < this.highWater / 2) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Ships everything still waiting, at once, and resolves when the sink has it all. */
  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.flushing || this.pending.length > 0) {
      if (!this.flushing) this.startFlush();
      await this.flushing;
    }
  }

  private schedule(): void {
    if (this.flushing) return; // the flush in progress looks again when it ends
    const wait = this.lastShipAt + this.intervalMs - this.now();
    if (this.pending.length >= this.batchLines || wait <= 0) {
      this.startFlush();
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.startFlush(), wait);
    }
  }

  private startFlush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.flushing || this.pending.length === 0) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = undefined;
      if (this.pending.length > 0 && !this.closing) this.schedule();
    });
  }

  private async flush(): Promise<void> {
    // Full batches go back to back; a partial one waits for the interval, unless closing.
    do {
      const batch = this.pending.splice(0, this.batchLines);
      this.lastShipAt = this.now();
      await this.send(batch);
      if (this.pending.length < this.highWater / 2) {
        for (const resolve of this.drainWaiters.splice(0)) resolve();
      }
    } while (this.pending.length >= this.batchLines || (this.closing && this.pending.length > 0));
  }

  private async send(batch: string[]): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.sink.append(batch);
        this.shipped += batch.length;
        return;
      } catch (error) {
        if (attempt >= this.retryDelaysMs.length) {
          this.lost += batch.length;
          this.options.onLost?.(error, batch);
          return;
        }
        await sleep(this.retryDelaysMs[attempt]);
      }
    }
  }
}
