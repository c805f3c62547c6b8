// A job kind: one queue table and what a worker must know about its rows, side by side
// (STYLE.md 9): which rows are due, what the worker reads, how long a claim lasts and how
// often it is renewed, how failures are retried, the time-out, and what a lease that ran
// out means. Every kind is listed in src/workers.ts; the mechanism is in leases.ts and
// worker.ts beside this file.
import type { Expression, ExpressionBuilder, Generated, Kysely, SqlBool } from 'kysely';
import type { Database } from '../schema.js';

/** The lease every queue table carries: `locked_by` is the claim token, `locked_until` when the claim runs out. */
export interface LeaseColumns {
  id: Generated<number>;
  locked_until: number | null;
  locked_by: string | null;
}

/** The tables that can be queues: those with an integer id and the lease columns. */
export type QueueTable = { [T in keyof Database]: Database[T] extends LeaseColumns ? T : never }[keyof Database];

/** One claimed row: the token is unique to the claim, so a result is written only while it still holds the row. */
export interface Lease {
  id: number;
  token: string;
}

/**
 * What a lease that ran out (its worker crashed, hung or lost the database) means:
 * - `retry`: the work may be repeated, so the row is simply due again; the next claim takes it.
 * - `lapsed`: the work had side effects that must not be repeated (a run on a device), so the
 *   claim never takes it again; recovery hands it to the kind's `lapsed` handler, which ends it
 *   (for example as failed, "worker lost").
 */
export type LapsePolicy = 'retry' | 'lapsed';

export interface RetryPolicy {
  /** Attempts in all, the first included; 1 means a failure is final. */
  attempts: number;
  /** How long to wait before attempt `step` (0-based, so the first retry is step 1); `hintMs` is the far side's own wish (Retry-After). */
  delayMs(step: number, hintMs: number | undefined, random: () => number): number;
}

export const NO_RETRY: RetryPolicy = { attempts: 1, delayMs: () => 0 };

export interface JobKind<T extends QueueTable = QueueTable, Payload = unknown, Lapse extends LapsePolicy = LapsePolicy> {
  /** Names the kind in logs, claim tokens and wake-up notifications. */
  name: string;
  table: T;
  /** Rows ready for work; the claim adds "holds no live lease" itself. */
  due(eb: ExpressionBuilder<Database, T>, now: number): Expression<SqlBool>;
  /** Due rows are claimed in this column's order (then by id). */
  order: keyof Database[T] & string;
  /** What the worker reads for a claimed row; undefined when the lease no longer holds it or it is no longer due. */
  payload(db: Kysely<Database>, lease: Lease): Promise<Payload | undefined>;
  /**
   * Rows one job takes together: one claim, one read (`payloads`), one handler call
   * (`runBatch`). For kinds whose work per row is a few statements, where the statements,
   * not the work, are the cost (a fire time of thousands of schedules). Default 1.
   */
  batchSize?: number;
  /** The payloads of a batch in one read, by row id; a row missing from the answer is released, as with `payload`. */
  payloads?(db: Kysely<Database>, leases: Lease[]): Promise<Map<number, Payload>>;
  /** How long a claim lasts. Without renewal it must outlast the time-out. */
  leaseMs: number;
  /** How often a running job's lease is extended by `leaseMs`; null for jobs that end well inside one lease. */
  renewEveryMs: number | null;
  /** The job's signal aborts after this long; the handler must stop. */
  timeoutMs: number;
  /** Retries the handler schedules when it records a failure. */
  retry: RetryPolicy;
  onLapse: Lapse;
  /** Jobs (batches, for a kind with `batchSize`) of this kind one worker process runs at the same time. */
  concurrency: number;
  /** How often an idle worker looks for due rows when no wake-up arrives. */
  pollMs: number;
}

/**
 * A kind of any table and payload, as the generic mechanism sees it: it hands the kind's own
 * condition the query's expression builder and never needs the row types (a condition typed
 * for one table is not assignable to one typed for all of them, hence `never`).
 */
export interface AnyJobKind extends Omit<JobKind, 'due' | 'order'> {
  due(eb: never, now: number): Expression<SqlBool>;
  order: string;
}

/** What a kind's worker reads for one job. */
export type PayloadOf<K> = K extends { payload(db: Kysely<Database>, lease: Lease): Promise<infer P | undefined> } ? P : never;

/** Checks what must stay true of every kind, once, when it is defined. */
export function defineJobKind<const T extends QueueTable, Payload, const Lapse extends LapsePolicy>(kind: JobKind<T, Payload, Lapse>): JobKind<T, Payload, Lapse> {
  const problem =
    kind.leaseMs <= 0 || kind.timeoutMs <= 0 || kind.concurrency < 1 || kind.pollMs <= 0
      ? 'lease, time-out, concurrency and poll interval must be positive'
      : kind.renewEveryMs === null && kind.leaseMs <= kind.timeoutMs
        ? 'a job without renewal must end (time out) inside its lease'
        : kind.renewEveryMs !== null && (kind.renewEveryMs <= 0 || kind.renewEveryMs * 2 > kind.leaseMs)
          ? 'renewal must come at least twice per lease, so one slow renewal does not lose it'
          : kind.retry.attempts < 1
            ? 'a kind makes at least one attempt'
            : kind.batchSize !== undefined && (!Number.isInteger(kind.batchSize) || kind.batchSize < 1 || (kind.batchSize > 1 && !kind.payloads))
              ? 'a batch is a whole number of rows, and a kind that batches reads its payloads in one go'
              : undefined;
  if (problem) throw new Error(`job kind ${kind.name}: ${problem}`);
  return kind;
}
