// `serve` runs cloud runs on a worker thread of its own, not on the API's event loop. Fifty
// runs mean fifty python3 processes whose pipes are read line by line, log batches written
// every 500 ms per run and leases renewed every 10 s; done on the API's loop, that work put
// the API's p99 in the hundreds of milliseconds (docs/PERFORMANCE.md). The thread has its own
// database connection and its own event loop; wake-ups reach it through the process's signal
// (LocalWakeup's BroadcastChannel on SQLite, LISTEN/NOTIFY on PostgreSQL), and everything
// else it shares with the API goes through the database, as with a separate `svc worker`.
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { allModules, type Modules } from '../build-modules.js';
import type { Config } from '../config.js';
import type { BackgroundWorker } from '../core/worker.js';
import { serveMatches, type TemplateMatcher } from '../modules/vision/index.js';

export interface RunsThreadData {
  config: Config;
  /** The SQLite file the API uses (unset on PostgreSQL). */
  sqliteFile: string | undefined;
  /** The PostgreSQL schema, when not the connection's default (benchmarks). */
  pgSchema?: string;
  /** Where the thread sends its template matches: the process's pool, owned by this side (decision 0025). */
  matchPort?: MessagePort;
}

export interface RunsThreadLog {
  info(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

export interface RunsThreadOptions extends Omit<RunsThreadData, 'matchPort'> {
  log: RunsThreadLog;
  /** The process's matching pool, which the thread's matches go to; without it the thread makes a pool of its own. */
  matcher?: TemplateMatcher;
  /** How long a stop waits for the runs in flight to be recorded before the thread is ended. */
  stopTimeoutMs?: number;
  /** The wait before a thread that failed is started again. */
  restartDelayMs?: number;
}

// Beside this file: dist/runs-thread/entry.js compiled, dist/bundle/entry.js in the bundle
// (scripts/bundle-server.js names that entry so).
const ENTRY = new URL('./entry.js', import.meta.url);

export class RunsThread implements BackgroundWorker {
  readonly name = 'cloud.run (thread)';
  private worker: Worker | undefined;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private started: Promise<void> | undefined;

  constructor(private readonly options: RunsThreadOptions) {}

  start(): void {
    this.stopping = false;
    this.spawn();
  }

  /** Resolves once the thread has built its modules and its run worker takes work. */
  ready(): Promise<void> {
    return this.started ?? Promise.reject(new Error('the cloud-run thread is not started'));
  }

  private spawn(): void {
    const { config, sqliteFile, pgSchema, log, matcher } = this.options;
    const channel = matcher ? new MessageChannel() : undefined;
    if (channel && matcher) serveMatches(channel.port1, matcher);
    const matchPort = channel?.port2;
    const worker = new Worker(ENTRY, { workerData: { config, sqliteFile, pgSchema, matchPort } satisfies RunsThreadData, transferList: matchPort ? [matchPort] : [] });
    // The relay's end closes with the thread; a restarted thread gets a fresh channel.
    worker.once('exit', () => channel?.port1.close());
    this.worker = worker;
    this.started = new Promise((resolve, reject) => {
      worker.on('message', (message) => {
        if (message === 'started') resolve();
      });
      worker.once('exit', () => reject(new Error('the cloud-run thread ended before it started')));
    });
    this.started.catch(() => undefined);
    worker.on('error', (error) => log.error({ err: error }, 'the cloud-run thread failed'));
    worker.once('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      if (this.stopping) return;
      // Its runs' leases lapse and end them "worker lost"; a fresh thread takes new runs.
      const delay = this.options.restartDelayMs ?? 1000;
      log.error({ code }, `the cloud-run thread ended unexpectedly; starting it again in ${delay} ms`);
      this.restartTimer = setTimeout(() => this.spawn(), delay);
      this.restartTimer.unref();
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const stopped = new Promise<void>((resolve) => {
      worker.on('message', (message) => {
        if (message === 'stopped') resolve();
      });
    });
    worker.postMessage('stop');
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), this.options.stopTimeoutMs ?? 25_000).unref());
    if ((await Promise.race([stopped, timeout])) === 'timeout') this.options.log.error({}, 'the cloud-run thread did not stop in time; ending it');
    await worker.terminate();
    await exited;
  }
}

/** The workers `serve` runs: every module's, with the cloud runs on `thread` instead of this loop. */
export function serveWorkers(modules: Modules, thread: RunsThread): BackgroundWorker[] {
  const onThisLoop = allModules(modules)
    .flatMap((module) => module.workers ?? [])
    .filter((worker) => worker !== modules.runs.runWorker);
  return [...onThisLoop, thread];
}
