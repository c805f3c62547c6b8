// Waking workers when work is queued, so a job starts at once instead of at the next poll.
// Two implementations, chosen by the dialect in database.ts: PostgreSQL `LISTEN/NOTIFY`
// across processes (wakeup-pg.ts), and an in-process signal for the embedded SQLite, where
// one process does all the work. Polling stays as the fallback either way: a wake-up is a
// hint that work may be due, never the record of it (the queue table is).
import { EventEmitter } from 'node:events';
import { BroadcastChannel } from 'node:worker_threads';
import type { Transaction } from 'kysely';
import type { Database } from './schema.js';

export interface Wakeup {
  /**
   * Called inside the transaction that queued work of `kind`. Workers hear of it once the
   * transaction commits, and never if it rolls back (PostgreSQL); on SQLite at once, but a
   * woken worker's claim waits for the connection this transaction holds until it commits.
   */
  notify(trx: Transaction<Database>, kind: string): Promise<void>;
  /** Calls `listener` whenever work of `kind` may have been queued; returns the unsubscribe. */
  subscribe(kind: string, listener: () => void): () => void;
  /** Stops listening (closes the listening connection, if any). */
  close(): Promise<void>;
}

/** Listeners by kind, for one process. */
export class Listeners {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  add(kind: string, listener: () => void): () => void {
    this.emitter.on(kind, listener);
    return () => this.emitter.off(kind, listener);
  }

  fire(kind: string): void {
    this.emitter.emit(kind);
  }

  /** Every listener of every kind, once (after missed notifications may have been lost). */
  fireAll(): void {
    for (const kind of this.emitter.eventNames()) this.emitter.emit(kind);
  }
}

// One signal per process, shared by every SQLite database opened in it: a process has one
// database outside tests, and a wake-up that finds nothing costs one claim query.
const inProcess = new Listeners();

// `serve` runs the cloud runs in a worker thread (runs-thread/), so the process's signal also
// crosses threads: a BroadcastChannel reaches every other thread of this process (never the
// sender, which fires its own listeners directly). Unreferenced: it never keeps a process alive.
const acrossThreads = new BroadcastChannel('svc.wakeup');
acrossThreads.unref();
acrossThreads.onmessage = (event) => {
  const kind = (event as MessageEvent).data;
  if (typeof kind === 'string') inProcess.fire(kind);
};

/** The embedded default: workers run in the process (and its threads) that queue the work. */
export class LocalWakeup implements Wakeup {
  async notify(_trx: Transaction<Database>, kind: string): Promise<void> {
    inProcess.fire(kind);
    acrossThreads.postMessage(kind);
  }

  subscribe(kind: string, listener: () => void): () => void {
    return inProcess.add(kind, listener);
  }

  async close(): Promise<void> {}
}
