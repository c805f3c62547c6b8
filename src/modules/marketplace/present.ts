// Listings, versions and reviews as the API shows them. An author appears by id and name,
// asked of the accounts module for a whole page at once; the email is never asked here.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, MarketplaceListingsTable, MarketplaceReviewsTable, MarketplaceVersionsTable } from '../../db/schema.js';
import { toIso } from '../../lib/clock.js';
import { accountNames } from '../accounts/index.js';

type Executor = Kysely<Database> | Transaction<Database>;
export type ListingRow = Selectable<MarketplaceListingsTable>;

/** Someone without a display name still needs one on a public page; never their email. */
export const authorNameOf = (id: number, name: string | null) => (name?.trim() ? name : `User ${id}`);

/** The listings table, as `l`. */
export function selectListings(db: Executor) {
  return db.selectFrom('marketplace_listings as l').selectAll('l');
}

/**
 * The listings as the API shows them, in the order given, each with its author's name (one
 * read of the accounts module for them all). A listing whose author is gone is left out, as
 * the join with users once left it out (the foreign key deletes it with its author anyway).
 */
export async function presentListings(db: Kysely<Database>, rows: readonly ListingRow[]) {
  const names = rows.length ? await accountNames(db, rows.map((row) => row.user_id)) : new Map<number, string | null>();
  return rows.flatMap((row) => (names.has(row.user_id) ? [presentListing(row, names.get(row.user_id) ?? null)] : []));
}

/** One listing as `presentListings` shows it. */
export async function presentOneListing(db: Kysely<Database>, row: ListingRow) {
  const [listing] = await presentListings(db, [row]);
  if (!listing) throw new Error(`the author of listing ${row.id} is gone`);
  return listing;
}

export function presentListing(row: ListingRow, authorName: string | null) {
  const count = Number(row.rating_count);
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    author: { id: row.user_id, name: authorNameOf(row.user_id, authorName) },
    kind: row.kind,
    tags: JSON.parse(row.tags) as string[],
    latest_version: row.latest_version,
    installs: Number(row.installs),
    rating: { average: count === 0 ? null : Math.round((Number(row.rating_sum) / count) * 100) / 100, count },
    visible: row.visible === 1,
    hidden_by_operator: row.hidden_at !== null,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

export function presentVersion(row: Selectable<MarketplaceVersionsTable>) {
  return {
    version: row.version,
    notes: row.notes,
    ...(row.worktree_hash !== null ? { worktree_hash: row.worktree_hash } : {}),
    ...(row.bundle_sha !== null ? { bundle_sha: row.bundle_sha } : {}),
    image_ids: JSON.parse(row.image_ids) as string[],
    published_at: toIso(row.published_at),
  };
}

export function presentReview(row: Selectable<MarketplaceReviewsTable> & { author_name: string | null }) {
  return {
    id: row.id,
    listing_id: row.listing_id,
    author: { id: row.user_id, name: authorNameOf(row.user_id, row.author_name) },
    stars: row.stars,
    text: row.text,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}
