// Which listings a caller may see: everyone's visible ones, and all of their own (hidden by
// themselves or by the operator). Anything else is simply not found (404).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { listingNotFound } from './errors.js';
import { type ListingRow, selectListings } from './present.js';

type Executor = Kysely<Database> | Transaction<Database>;

export async function findVisibleListing(db: Executor, userId: number, listingId: number): Promise<ListingRow> {
  const row = await selectListings(db)
    .where('l.id', '=', listingId)
    .where((eb) => eb.or([eb('l.user_id', '=', userId), eb.and([eb('l.visible', '=', 1), eb('l.hidden_at', 'is', null)])]))
    .executeTakeFirst();
  if (!row) throw listingNotFound();
  return row;
}

/** The caller's own listing; someone else's answers 404 like a missing one. */
export async function findOwnListing(db: Executor, userId: number, listingId: number): Promise<ListingRow> {
  const row = await selectListings(db).where('l.id', '=', listingId).where('l.user_id', '=', userId).executeTakeFirst();
  if (!row) throw listingNotFound();
  return row;
}
