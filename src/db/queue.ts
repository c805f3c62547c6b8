// Claiming due rows of a queue table with a lease. On PostgreSQL, `FOR UPDATE SKIP LOCKED`
// lets several workers claim at once without waiting on or taking each other's rows; on
// SQLite one process owns the work and its single connection serialises the statement.
// The claim is one statement, committed before the worker starts the slow part.
import type { Kysely } from 'kysely';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';

export interface Claim {
  now: number;
  leaseMs: number;
  /** Unique per claim: the result is written only while this token still holds the row. */
  token: string;
  limit: number;
}

/** Claims up to `limit` pending deliveries whose attempt is due and whose lease (if any) has run out. */
export async function claimDueDeliveries(db: Kysely<Database>, dialect: DialectName, claim: Claim): Promise<number[]> {
  let due = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', claim.now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', claim.now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(claim.limit);
  if (dialect === 'postgres') due = due.forUpdate().skipLocked();
  const rows = await db
    .updateTable('webhook_deliveries')
    .set({ locked_until: claim.now + claim.leaseMs, locked_by: claim.token })
    .where('id', 'in', due)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

