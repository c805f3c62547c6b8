// Frozen images of marketplace listings (docs/decisions/0020-frozen-listing-images.md): the
// pictures a version's code or program names, copied from the author's library when the
// version is published, so deleting them from the library later changes nothing installed.
// One row per listing and image id: an id always names the same bytes, so the versions of a
// listing share it. Versions published before this migration get the images their author
// still has. It also indexes the `rating` order of the listing search.
import { type Kysely, type Migration, sql } from 'kysely';
import { refType } from '../columns.js';
import type { DialectName } from '../database.js';

export function marketplaceImages(dialect: DialectName): Migration {
  const ref = refType(dialect);
  const bytes = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('marketplace_images')
        .addColumn('listing_id', ref, (c) => c.notNull().references('marketplace_listings.id').onDelete('cascade'))
        .addColumn('image_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('content', bytes, (c) => c.notNull())
        .addColumn('frozen_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('marketplace_images_pk', ['listing_id', 'image_id'])
        .execute();

      // The `rating` order (search.ts): the average pulled towards 3 by five phantom reviews,
      // then the count and the id. Indexed as the query writes it, so a page of it is an index
      // walk like `popular` instead of a sort of every visible listing.
      await sql`create index marketplace_listings_rating_idx on marketplace_listings (((rating_sum + 15.0) / (rating_count + 5.0)), rating_count, id)`.execute(db);

      const raw = db as unknown as Kysely<{
        marketplace_versions: { listing_id: number; image_ids: string; published_at: number };
        marketplace_listings: { id: number; user_id: number };
      }>;
      const versions = await raw
        .selectFrom('marketplace_versions as v')
        .innerJoin('marketplace_listings as l', 'l.id', 'v.listing_id')
        .select(['v.listing_id', 'l.user_id', 'v.image_ids', 'v.published_at'])
        .where('v.image_ids', '<>', '[]')
        .execute();
      for (const version of versions) {
        const ids = JSON.parse(version.image_ids) as string[];
        for (const id of ids) {
          await sql`insert into marketplace_images (listing_id, image_id, name, width, height, content_type, size_bytes, sha256, source, content, frozen_at)
            select ${version.listing_id}, id, name, width, height, content_type, size_bytes, sha256, source, content, ${version.published_at}
            from images where user_id = ${version.user_id} and id = ${id}
            on conflict (listing_id, image_id) do nothing`.execute(db);
        }
      }
    },
  };
}
