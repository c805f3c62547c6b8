// The listing search's total without reading every listing (docs/decisions/0023-bounded-listing-search.md):
// a page counts every listing (or the tag's index rows) less the listings the caller may not
// see, those hidden by their author or by the operator. This partial index holds only those,
// with the author, so the second count reads a few index entries.
import { type Kysely, type Migration, sql } from 'kysely';

export function listingSearchCounts(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // The condition is written as search.ts's `UNLISTED` is: SQLite uses a partial index
      // only for a query that repeats its condition.
      await db.schema
        .createIndex('marketplace_listings_unlisted_idx')
        .on('marketplace_listings')
        .columns(['user_id', 'id'])
        .where(sql<boolean>`visible <> 1 or hidden_at is not null`)
        .execute();
    },
  };
}
