// The worker loop every job kind runs in: claim up to the free concurrency, run each job
// under its lease (renewed for long jobs, aborted on time-out or a lost lease), wake on a
// signal or poll as the fallback, recover lapsed leases, and on stop wait for the jobs in
// flight. What a job does is the kind's handler; the loop only keeps the lease rules.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../database.js';
import type { AnyJobKind, Lease, PayloadOf } from './kind.js';
import { claimDueJobs, recoverLapsedJobs, releaseLease, renewLeases } from './leases.js';

export interface JobLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface RunningJob<Payload> {
  lease: Lease;
  payload: Payload;
  /** Aborts when the kind's time-out passes or the lease is found lost; the handler should stop. */
  signal: AbortSignal;
}

/**
 * What a kind does with a job (`run`), or with a batch of them for a kind with `batchSize`
 * (`runBatch`, which gets the jobs whose payloads were read, under one signal); a kind whose
 * lapse ends the job must say how (`lapsed`).
 */
export type JobHandlers<K extends AnyJobKind> = (
  | { run(job: RunningJob<PayloadOf<K>>): Promise<void>; runBatch?: undefined }
  | { runBatch(jobs: RunningJob<PayloadOf<K>>[]): Promise<void>; run?: undefined }
) &
  (K['onLapse'] extends 'lapsed' ? { lapsed(lease: Lease): Promise<void> } : { lapsed?: undefined });

export interface JobWorkerOptions<K extends AnyJobKind> {
  db: Db;
  clock: Clock;
  log: JobLog;
  kind: K;
  handlers: JobHandlers<K>;
  /** Names this worker in `locked_by`; defaults to host and process id. */
  name?: string;
}

export class JobWorker<K extends AnyJobKind> {
  private readonly name: string;
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;
  private loopDone: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private woken = false;
  /** The last claim filled every free slot, so more may be due: a finished job wakes the loop. */
  private moreMayBeDue = false;
  private lastRecovery = Number.NEGATIVE_INFINITY;
  private unsubscribe: (() => void) | undefined;

  /** Rows per job: the kind's batch when its handler takes batches, else one. */
  private readonly batchSize: number;

  constructor(private readonly options: JobWorkerOptions<K>) {
    this.name = options.name ?? `${hostname()}:${process.pid}`;
    this.batchSize = options.handlers.runBatch ? (options.kind.batchSize ?? 1) : 1;
    if (Boolean(options.handlers.runBatch) !== Boolean(options.kind.payloads) || (!options.handlers.runBatch && (options.kind.batchSize ?? 1) > 1)) {
      throw new Error(`job kind ${options.kind.name}: a worker takes batches (runBatch) exactly when its kind reads them (payloads)`);
    }
  }

  /** Recovers lapsed leases, claims what is due now and runs it; resolves when those jobs end. Answers the rows claimed. For tests and tools. */
  async runOnce(): Promise<number> {
    await this.recover();
    const leases = await this.claim(this.options.kind.concurrency * this.batchSize);
    await Promise.all(this.batches(leases).map((batch) => this.execute(batch)));
    return leases.length;
  }

  start(): void {
    if (this.loopDone) return;
    this.unsubscribe = this.options.db.wakeup.subscribe(this.options.kind.name, () => this.signal());
    this.loopDone = this.loop();
  }

  /** Stops claiming and waits for the jobs in flight (each ends within the kind's time-out). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    this.signal();
    await this.loopDone;
    await Promise.all(this.inFlight);
  }

  /** Looks for due work now rather than at the next poll (a job that queued work of this kind in this process). */
  nudge(): void {
    this.signal();
  }

  private signal(): void {
    this.woken = true;
    this.wake?.();
  }

  private async loop(): Promise<void> {
    const { kind, log } = this.options;
    // Lapsed leases are rare (a crashed worker); looking twice per lease length is soon enough.
    const recoverEveryMs = kind.leaseMs / 2;
    while (!this.stopping) {
      this.woken = false;
      if (kind.onLapse === 'lapsed' && Date.now() - this.lastRecovery >= recoverEveryMs) {
        this.lastRecovery = Date.now();
        await this.recover().catch((error: unknown) => log.warn({ err: error, job: kind.name }, 'recovering lapsed jobs failed; retrying later'));
      }
      const free = (kind.concurrency - this.inFlight.size) * this.batchSize;
      let claimed = 0;
      if (free > 0) {
        try {
          const leases = await this.claim(free);
          claimed = leases.length;
          this.moreMayBeDue = claimed === free;
          for (const batch of this.batches(leases)) this.track(this.execute(batch));
        } catch (error) {
          log.warn({ err: error, job: kind.name }, 'claiming jobs failed; retrying at the next poll');
        }
      }
      if (this.stopping) break;
      if (free > 0 && claimed === free) continue;
      await this.sleep(kind.pollMs);
    }
  }

  private track(job: Promise<void>): void {
    const tracked = job.finally(() => {
      this.inFlight.delete(tracked);
      // Under a backlog, claim again once half the slots are free rather than at every finished
      // job: one claim statement then takes several rows (measured with 10,000 due schedules,
      // bench/scheduler.js), and the jobs still running keep the worker busy meanwhile.
      if (this.moreMayBeDue && this.inFlight.size <= Math.floor(this.options.kind.concurrency / 2)) this.wake?.();
    });
    this.inFlight.add(tracked);
  }

  /** One claim's leases as the jobs to run: one each, or batches of the kind's size. */
  private batches(leases: Lease[]): Lease[][] {
    const batches: Lease[][] = [];
    for (let i = 0; i < leases.length; i += this.batchSize) batches.push(leases.slice(i, i + this.batchSize));
    return batches;
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
      // A wake-up that arrived while claiming must not wait for the poll.
      if (this.woken || this.stopping) this.wake();
    });
  }

  private newToken(): string {
    return `${this.name}:${randomBytes(6).toString('hex')}`;
  }

  private claim(limit: number): Promise<Lease[]> {
    return claimDueJobs(this.options.db, this.options.kind, { now: this.options.clock.now(), token: this.newToken(), limit });
  }

  /** Hands rows whose lease ran out to the kind's `lapsed` handler (retrying kinds need nothing: the claim takes them). */
  private async recover(): Promise<void> {
    const { db, clock, kind, handlers, log } = this.options;
    if (kind.onLapse !== 'lapsed' || !handlers.lapsed) return;
    const lapsed = handlers.lapsed;
    const leases = await recoverLapsedJobs(db, { ...kind, onLapse: 'lapsed' }, { now: clock.now(), token: this.newToken(), limit: kind.concurrency });
    await Promise.all(
      leases.map((lease) =>
        lapsed(lease).catch((error: unknown) => log.error({ err: error, job: kind.name, id: lease.id }, 'ending a lapsed job failed; it is recovered again when this lease lapses')),
      ),
    );
  }

  /** One job (or one batch) under its leases. Never throws: a job that fails keeps its leases until they lapse, and the kind's lapse rule applies. */
  private async execute(leases: Lease[]): Promise<void> {
    const { db, clock, kind, handlers, log } = this.options;
    const abort = new AbortController();
    const timeout = setTimeout(() => abort.abort(new Error(`${kind.name} timed out after ${kind.timeoutMs} ms`)), kind.timeoutMs);
    const renewal = kind.renewEveryMs === null ? undefined : setInterval(() => void this.renew(leases, abort), kind.renewEveryMs);
    try {
      if (handlers.runBatch) {
        const payloads = await (kind.payloads as NonNullable<typeof kind.payloads>)(db.kysely, leases);
        const jobs = leases.flatMap((lease) => (payloads.has(lease.id) ? [{ lease, payload: payloads.get(lease.id) as PayloadOf<K>, signal: abort.signal }] : []));
        await Promise.all(leases.filter((lease) => !payloads.has(lease.id)).map((lease) => releaseLease(db.kysely, kind, lease, clock.now())));
        if (jobs.length > 0) await handlers.runBatch(jobs);
        return;
      }
      const [lease] = leases as [Lease];
      const payload = (await kind.payload(db.kysely, lease)) as PayloadOf<K> | undefined;
      if (payload === undefined) {
        await releaseLease(db.kysely, kind, lease, clock.now());
        return;
      }
      await handlers.run({ lease, payload, signal: abort.signal });
    } catch (error) {
      const next = kind.onLapse === 'retry' ? 'it is tried again when its lease lapses' : 'it is ended when its lease lapses';
      log.error({ err: error, job: kind.name, ids: leases.map((lease) => lease.id) }, `a job failed; ${next}`);
    } finally {
      clearTimeout(timeout);
      clearInterval(renewal);
    }
  }

  /** Extends every lease of the job; one found lost aborts it (a batch's writes are each conditional on their own lease, so the rest is only retried). */
  private async renew(leases: Lease[], abort: AbortController): Promise<void> {
    const { db, clock, kind, log } = this.options;
    try {
      if (!(await renewLeases(db.kysely, kind, leases, clock.now()))) abort.abort(new Error(`${kind.name} lost its lease`));
    } catch (error) {
      // The next renewal tries again; the lease is long enough for one to fail.
      log.warn({ err: error, job: kind.name, ids: leases.map((lease) => lease.id) }, 'renewing a lease failed');
    }
  }
}
