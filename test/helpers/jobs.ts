// Job kinds for testing the generic mechanism on a real queue table (webhook_deliveries):
// each kind sees only one user's rows, so tests in one file never take each other's work.
import type { Kysely } from 'kysely';
import { defineJobKind, type JobKind, type LapsePolicy, type Lease, NO_RETRY } from '../../src/db/jobs/kind.js';
import type { Database } from '../../src/db/schema.js';

export function testKind<const L extends LapsePolicy = 'retry'>(userId: number, overrides: Partial<Omit<JobKind<'webhook_deliveries', { id: number }, L>, 'table'>> & { onLapse?: L } = {}) {
  return defineJobKind<'webhook_deliveries', { id: number }, L>({
    name: `test.${userId}`,
    table: 'webhook_deliveries',
    due: (eb, now) => eb.and([eb('user_id', '=', userId), eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
    order: 'next_attempt_at',
    payload: (db, lease) => held(db, lease),
    leaseMs: 10_000,
    renewEveryMs: null,
    timeoutMs: 5_000,
    retry: NO_RETRY,
    onLapse: 'retry' as L,
    concurrency: 8,
    pollMs: 60_000,
    ...overrides,
  });
}

/** The row while `lease` holds it. */
export function held(db: Kysely<Database>, lease: Lease) {
  return db.selectFrom('webhook_deliveries').select('id').where('id', '=', lease.id).where('locked_by', '=', lease.token).executeTakeFirst();
}

/** Queues `count` pending rows for the user, due at `at` (one event, one row per made-up endpoint). */
export async function queueRows(db: Kysely<Database>, userId: number, count: number, at: number): Promise<number[]> {
  const { id: eventPk } = await db
    .insertInto('events')
    .values({ user_id: userId, event_id: `evt_${userId}_${at}_${Math.random()}`, type: 'custom.test', device_id: null, payload: '{}', created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rows = await db
    .insertInto('webhook_deliveries')
    .values(
      Array.from({ length: count }, (_, i) => ({
        user_id: userId,
        endpoint_id: i + 1,
        event_pk: eventPk,
        event_id: `evt_${eventPk}`,
        event_type: 'custom.test',
        status: 'pending' as const,
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export function rowOf(db: Kysely<Database>, id: number) {
  return db.selectFrom('webhook_deliveries').select(['status', 'locked_by', 'locked_until', 'last_error', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow();
}
