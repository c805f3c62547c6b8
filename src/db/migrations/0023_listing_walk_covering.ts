// The popular order's index also carries what the visibility condition reads (author, visible,
// hidden), so a walk down it (the `popular` pages, and `relevance` finding its candidates:
// docs/decisions/0023-bounded-listing-search.md) never fetches a listing row to learn whether
// the caller may see it. On SQLite that walk reads thousands of entries for a common word; the
// covering index took it from 8.3 to 6.9 ms for two words at 100,000 listings
// (bench/marketplace.js). It replaces the narrower index of the same order.
import type { Kysely, Migration } from 'kysely';

export function listingWalkCovering(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('marketplace_listings_popular_idx').execute();
      await db.schema
        .createIndex('marketplace_listings_popular_idx')
        .on('marketplace_listings')
        .columns(['installs', 'id', 'user_id', 'visible', 'hidden_at'])
        .execute();
    },
  };
}
