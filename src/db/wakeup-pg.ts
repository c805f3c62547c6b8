// Wake-ups across processes on PostgreSQL. `pg_notify` runs inside the transaction that
// queued the work, so the notification is delivered when, and only if, it commits: a woken
// worker always finds the rows. Workers listen on one dedicated connection per process (a
// pooled connection would be handed to other queries), opened on the first subscription.
// When that connection drops, it is opened again with a growing delay, and after every
// (re)connection each listener is called once: notifications sent while it was down are lost.
import { sql, type Transaction } from 'kysely';
import type { Client } from 'pg';
import { pgDriver } from './pg-driver.js';
import type { Database } from './schema.js';
import { Listeners, type Wakeup } from './wakeup.js';

/** One channel for every kind (the payload names the kind), so one LISTEN serves them all. */
export const WAKEUP_CHANNEL = 'svc_jobs';
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

export interface PgWakeupOptions {
  connectionString: string;
  /** Told when the listening connection fails or drops; it reconnects by itself. */
  report: (error: Error) => void;
}

export class PgWakeup implements Wakeup {
  private readonly listeners = new Listeners();
  private client: Client | undefined;
  private connecting = false;
  private closed = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private pid: number | undefined;
  private waiters: (() => void)[] = [];

  constructor(private readonly options: PgWakeupOptions) {}

  async notify(trx: Transaction<Database>, kind: string): Promise<void> {
    await sql`select pg_notify(${WAKEUP_CHANNEL}, ${kind})`.execute(trx);
  }

  subscribe(kind: string, listener: () => void): () => void {
    const remove = this.listeners.add(kind, listener);
    if (!this.client && !this.connecting && !this.retryTimer && !this.closed) void this.connect();
    return remove;
  }

  /** The listening connection's server process, while it is up (operators and tests look for it). */
  get backendPid(): number | undefined {
    return this.pid;
  }

  /** Resolves once the connection listens (at once if it does). */
  listening(): Promise<void> {
    if (this.pid !== undefined) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.pid = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    this.connecting = true;
    this.retryTimer = undefined;
    // The process id in the name lets an operator see which process holds which listener.
    const client = new (pgDriver().Client)({ connectionString: this.options.connectionString, application_name: `svc-wakeup:${process.pid}`, keepAlive: true });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the connection ended')));
    client.on('notification', (message) => {
      if (message.channel === WAKEUP_CHANNEL && message.payload) this.listeners.fire(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${WAKEUP_CHANNEL}`);
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.pid = rows[0].pid;
      this.failures = 0;
      for (const resolve of this.waiters.splice(0)) resolve();
      // Work queued before this connection listened (or while an earlier one was down)
      // sent notifications nobody heard: every worker looks once now.
      this.listeners.fireAll();
    } catch (error) {
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      this.lost(undefined, error as Error);
    } finally {
      this.connecting = false;
    }
  }

  /** The listening connection failed: forget it and connect again after a growing delay. */
  private lost(client: Client | undefined, error: Error): void {
    if (client !== undefined) {
      if (client !== this.client) return;
      this.client = undefined;
      this.pid = undefined;
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
    }
    if (this.closed || this.retryTimer) return;
    this.options.report(new Error(`the wake-up listener's database connection failed (${error.message}); reconnecting`));
    const delay = Math.min(RETRY_FIRST_MS * 2 ** this.failures, RETRY_MAX_MS);
    this.failures += 1;
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }
}
