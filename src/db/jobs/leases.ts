// Leases on queue rows, for every job kind. A claim is one statement, committed before the
// worker starts the slow part. On PostgreSQL `FOR UPDATE SKIP LOCKED` lets several workers
// claim at once without waiting on or taking each other's rows; on SQLite one process owns
// the work and its single connection serialises the statement. Everything a worker writes
// afterwards is conditional on its token still holding a live lease, so a worker that lost
// its lease (expired, then claimed or recovered by another) changes nothing.
import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql, type UpdateObject, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Db } from '../database.js';
import type { Database } from '../schema.js';
import type { AnyJobKind, Lease, QueueTable } from './kind.js';

/**
 * The queue tables seen through their lease columns only. Kysely cannot type a query on a
 * table chosen at run time, so the generic statements use this view; a kind's own
 * conditions and writes are typed against its table where the kind states them.
 */
type LeaseView = Record<string, { id: number; locked_until: number | null; locked_by: string | null }>;
const leaseView = (db: Kysely<Database>) => db as unknown as Kysely<LeaseView>;
type LeaseUpdate = UpdateQueryBuilder<LeaseView, string, string, UpdateResult>;
/**
 * What a job writes with its result: values, or a function of the row's columns (`attempts + 1`).
 * Distributed over the tables, so while T is still being inferred a callback's object keeps its
 * literal values (`status: 'succeeded'`) even with several queue tables (the keys of
 * UpdateObject over a union of tables would be only their common columns).
 */
export type JobWrite<T extends QueueTable> = T extends unknown ? UpdateObject<Database, T> | ((eb: ExpressionBuilder<Database, T>) => UpdateObject<Database, T>) : never;

export interface ClaimRequest {
  now: number;
  /** Unique per claim. */
  token: string;
  limit: number;
}

/**
 * Claims up to `limit` due rows that hold no live lease. A lease that ran out counts as
 * none for a kind that retries on lapse; a kind whose lapse ends the job never gets such a
 * row back here (see `recoverLapsedJobs`).
 */
export async function claimDueJobs(db: Db, kind: AnyJobKind, claim: ClaimRequest): Promise<Lease[]> {
  const view = leaseView(db.kysely);
  let due = view
    .selectFrom(kind.table)
    .select('id')
    .where((eb) => kind.due(eb as never, claim.now))
    .where((eb) => (kind.onLapse === 'retry' ? eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', claim.now)]) : eb('locked_until', 'is', null)))
    .orderBy(sql.ref(kind.order))
    .orderBy('id')
    .limit(claim.limit);
  if (db.dialect === 'postgres') due = due.forUpdate().skipLocked();
  return take(view, kind, due, claim);
}

/**
 * For a kind whose lapse ends the job: takes over up to `limit` rows whose lease ran out,
 * under a new lease, for the kind's `lapsed` handler to end. Whatever their state: a row
 * whose worker vanished mid-job is no longer "due" by the kind's rule. Two recoverers never
 * take the same row (the same claim statement as above), and a recoverer that dies leaves
 * a lease that runs out again, so the row is recovered once more.
 */
export async function recoverLapsedJobs(db: Db, kind: AnyJobKind & { onLapse: 'lapsed' }, claim: ClaimRequest): Promise<Lease[]> {
  const view = leaseView(db.kysely);
  let lapsed = view
    .selectFrom(kind.table)
    .select('id')
    .where('locked_until', 'is not', null)
    .where('locked_until', '<=', claim.now)
    .orderBy('locked_until')
    .orderBy('id')
    .limit(claim.limit);
  if (db.dialect === 'postgres') lapsed = lapsed.forUpdate().skipLocked();
  return take(view, kind, lapsed, claim);
}

async function take(view: Kysely<LeaseView>, kind: AnyJobKind, rows: SelectQueryBuilder<LeaseView, string, { id: number }>, claim: ClaimRequest): Promise<Lease[]> {
  const taken = await view
    .updateTable(kind.table)
    .set({ locked_until: claim.now + kind.leaseMs, locked_by: claim.token })
    .where('id', 'in', rows)
    .returning('id')
    .execute();
  return taken.map((row) => ({ id: row.id, token: claim.token }));
}

/** Extends a held lease by the kind's lease length from `now`; false when the lease was already lost. */
export async function renewLease(db: Kysely<Database>, kind: AnyJobKind, lease: Lease, now: number): Promise<boolean> {
  return renewLeases(db, kind, [lease], now);
}

/** `renewLease` for the leases of a batch, one statement per claim token; false when any of them was already lost. */
export async function renewLeases(db: Kysely<Database>, kind: AnyJobKind, leases: Lease[], now: number): Promise<boolean> {
  let renewed = 0;
  for (const [token, ids] of idsByToken(leases)) {
    const result = await leaseView(db)
      .updateTable(kind.table)
      .set({ locked_until: now + kind.leaseMs })
      .where('id', 'in', ids)
      .where('locked_by', '=', token)
      .where('locked_until', '>', now)
      .executeTakeFirst();
    renewed += Number(result.numUpdatedRows);
  }
  return renewed === leases.length;
}

/** A batch's lease ids by claim token (a batch is usually one claim, so one token). */
function idsByToken(leases: Lease[]): Map<string, number[]> {
  const byToken = new Map<string, number[]>();
  for (const lease of leases) byToken.set(lease.token, [...(byToken.get(lease.token) ?? []), lease.id]);
  return byToken;
}

/**
 * Writes the job's result and ends its lease, only while `lease` still holds the row. Run it
 * inside the transaction that writes the rest of the outcome, and write the rest only when it
 * answers true: false means the lease was lost, the row belongs to someone else, and this
 * worker's result must leave no trace.
 */
export async function completeJob<T extends QueueTable>(db: Kysely<Database>, kind: AnyJobKind & { table: T }, lease: Lease, now: number, set: JobWrite<T>): Promise<boolean> {
  return writeHeld(db, kind, lease, now, set, { locked_until: null, locked_by: null });
}

/**
 * `completeJob` for the jobs of a batch in one statement per claim token: each row gets its own
 * values (a `CASE` on the id per column; a row without a column keeps it). Answers the ids
 * written; a lease that was lost writes nothing, as with `completeJob`.
 */
export async function completeJobs(db: Kysely<Database>, kind: AnyJobKind, jobs: { lease: Lease; set: Record<string, string | number | null> }[], now: number): Promise<number[]> {
  const written: number[] = [];
  const setOf = new Map(jobs.map((job) => [job.lease.id, job.set]));
  for (const [token, ids] of idsByToken(jobs.map((job) => job.lease))) {
    const held = ids.map((id) => ({ id, set: setOf.get(id) as Record<string, string | number | null> }));
    const columns = [...new Set(held.flatMap((job) => Object.keys(job.set)))];
    const values: Record<string, unknown> = { locked_until: null, locked_by: null };
    for (const column of columns) {
      const cases = held.filter((job) => column in job.set).map((job) => sql`when ${job.id} then ${job.set[column]}`);
      values[column] = sql`case ${sql.ref('id')} ${sql.join(cases, sql` `)} else ${sql.ref(column)} end`;
    }
    const rows = await leaseView(db)
      .updateTable(kind.table)
      .set(values as never)
      .where('id', 'in', ids)
      .where('locked_by', '=', token)
      .where('locked_until', '>', now)
      .returning('id')
      .execute();
    written.push(...rows.map((row) => row.id));
  }
  return written;
}

/** Writes progress (for example "running") while keeping the lease; false when the lease was lost. */
export async function updateWhileHeld<T extends QueueTable>(db: Kysely<Database>, kind: AnyJobKind & { table: T }, lease: Lease, now: number, set: JobWrite<T>): Promise<boolean> {
  return writeHeld(db, kind, lease, now, set, {});
}

/** Gives the row back unchanged (the job did not run); false when the lease was already lost. */
export async function releaseLease(db: Kysely<Database>, kind: AnyJobKind, lease: Lease, now: number): Promise<boolean> {
  const result = await held(leaseView(db).updateTable(kind.table).set({ locked_until: null, locked_by: null }), lease, now).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

async function writeHeld(db: Kysely<Database>, kind: AnyJobKind, lease: Lease, now: number, set: unknown, lock: Partial<{ locked_until: null; locked_by: null }>): Promise<boolean> {
  type Values = Record<string, unknown>;
  const values = typeof set === 'function' ? (eb: unknown) => ({ ...(set as (eb: unknown) => Values)(eb), ...lock }) : { ...(set as Values), ...lock };
  const result = await held(leaseView(db).updateTable(kind.table).set(values as never), lease, now).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** "This token, and its lease has not run out": the one test of holding a lease. */
function held(query: LeaseUpdate, lease: Lease, now: number): LeaseUpdate {
  return query.where('id', '=', lease.id).where('locked_by', '=', lease.token).where('locked_until', '>', now);
}
