// SQLite copies its write-ahead log back into the database file in a checkpoint, which by
// default the connection whose commit brings the log to 1000 pages runs inline: that commit
// then takes 10–15 ms (the copy and an fsync) instead of about 0.1 ms, and on `serve` every
// request waits with it (measured on a trace's batches: a third of the write time, in one
// commit out of sixty; docs/PERFORMANCE.md). A thread of its own, with its own connection,
// runs passive checkpoints instead, every CHECKPOINT_EVERY_MS while the log is being written
// (backing off to IDLE_MS while it is not): they never take the write lock or wait for a
// writer, and keep the log well under the inline threshold. The inline
// checkpoint stays as the fallback, so a thread that stopped never lets the log grow unbounded.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The pause between checkpoints while the log is being written; it doubles while nothing is, up to IDLE_MS. */
export const CHECKPOINT_EVERY_MS = 10;
const IDLE_MS = 320;
/** How long after the database opens the thread starts. */
export const START_DELAY_MS = 2000;

/**
 * The thread's code, evaluated rather than loaded from a file beside this one: the same source
 * serves tests (from src/), dist/ and the bundle. It reaches better-sqlite3 by the path this
 * side resolved.
 */
const THREAD_SOURCE = `
(() => {
  const { parentPort, workerData } = require('node:worker_threads');
  const SQLite = require(workerData.driver);
  const db = new SQLite(workerData.file, { fileMustExist: true });
  db.pragma('busy_timeout = 0');
  let pause = workerData.everyMs;
  let timer;
  const checkpoint = () => {
    let copied = 0;
    // Another connection checkpointing at the same moment answers busy: the next round goes on.
    try { copied = db.pragma('wal_checkpoint(PASSIVE)')[0].checkpointed; } catch {}
    pause = copied > 0 ? workerData.everyMs : Math.min(pause * 2, workerData.idleMs);
    timer = setTimeout(checkpoint, pause);
  };
  timer = setTimeout(checkpoint, pause);
  parentPort.once('message', () => {
    clearTimeout(timer);
    db.close();
    parentPort.close();
  });
  parentPort.postMessage('started');
})();
`;

export interface BackgroundCheckpoints {
  /** Resolves once the thread has opened its connection (it then checkpoints every interval); never, if stopped before it started. */
  readonly started: Promise<void>;
  /** Ends the thread and closes its connection. */
  stop(): Promise<void>;
}

/**
 * Starts the thread after `delayMs` (default START_DELAY_MS): a process starting up has better
 * use for its cores than loading a second SQLite and folding in its migrations at once, and
 * until then SQLite checkpoints inline as it always did.
 */
export function startBackgroundCheckpoints(file: string, options: { everyMs?: number; delayMs?: number; onFailure?: (error: Error) => void } = {}): BackgroundCheckpoints {
  let stopped = false;
  let thread: { started: Promise<void>; stop(): Promise<void> } | undefined;
  let timer: NodeJS.Timeout | undefined;
  const started = new Promise<void>((resolve, reject) => {
    const spawn = () => {
      thread = spawnThread(file, options);
      thread.started.then(resolve, reject);
    };
    const delayMs = options.delayMs ?? START_DELAY_MS;
    if (delayMs <= 0) return spawn();
    timer = setTimeout(spawn, delayMs);
    // A command that ends before the delay is not held up by it.
    timer.unref();
  });
  started.catch(() => undefined);
  return {
    started,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      await thread?.stop();
    },
  };
}

function spawnThread(file: string, options: { everyMs?: number; onFailure?: (error: Error) => void }) {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { file, driver, everyMs: options.everyMs ?? CHECKPOINT_EVERY_MS, idleMs: IDLE_MS } });
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const started = new Promise<void>((resolve, reject) => {
    worker.once('message', () => {
      // Once going, never what keeps a process alive: a command that forgets to close its database still ends.
      if (!stopping) worker.unref();
      resolve();
    });
    void exited.then(() => reject(new Error('the checkpoint thread ended before it started')));
  });
  started.catch(() => undefined);
  worker.on('error', (error) => options.onFailure?.(error));
  return {
    started,
    async stop() {
      // Held while it ends, or a process with nothing else to do would leave before it closed.
      stopping = true;
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
