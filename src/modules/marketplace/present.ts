// Listings, versions and reviews as the API shows them. An author appears by id and name;
// the email is never selected here.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, MarketplaceListingsTable, MarketplaceReviewsTable, MarketplaceVersionsTable } from '../../db/schema.js';
import { toIso } from '../../lib/clock.js';

type Executor = Kysely<Database> | Transaction<Database>;
export type ListingRow = Selectable<MarketplaceListingsTable> & { author_name: string | null };

/** Someone without a display name still needs one on a public page; never their email. */
export const authorName = (id: number, name: string | null) => (name?.trim() ? name : `User ${id}`);

/** The listings table joined with its author's name, as `l` and `u`. */
export function selectListings(db: Executor) {
  return db.selectFrom('marketplace_listings as l').innerJoin('users as u', 'u.id', 'l.user_id').selectAll('l').select('u.name as author_name');
}

export function presentListing(row: ListingRow) {
  const count = Number(row.rating_count);
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    author: { id: row.user_id, name: authorName(row.user_id, row.author_name) },
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
    author: { id: row.user_id, name: authorName(row.user_id, row.author_name) },
    stars: row.stars,
    text: row.text,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}
