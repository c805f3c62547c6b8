// The marketplace (docs/decisions/0016-marketplace.md): listings, their frozen versions,
// reviews, and each engine's own text index over title, summary and tags. Code zips move
// into `code_blobs`, one row per distinct zip by SHA-256, so a published version and every
// installed copy share the author's bytes instead of copying them.
import { createHash } from 'node:crypto';
import { type Kysely, type Migration, sql } from 'kysely';
import { oneOf, refType, withId } from '../columns.js';
import type { DialectName } from '../database.js';
import { MACRO_KINDS } from '../../core/values.js';

/** Moves each snapshot's zip into `code_blobs`, a few at a time so memory stays bounded. */
async function moveZipsToBlobs(db: Kysely<unknown>): Promise<void> {
  const raw = db as unknown as Kysely<{
    code_snapshots: { id: number; zip: Buffer; zip_sha256: string | null; created_at: number };
    code_blobs: { sha256: string; zip: Buffer; size_bytes: number; created_at: number };
  }>;
  for (;;) {
    const rows = await raw.selectFrom('code_snapshots').select(['id', 'zip', 'created_at']).where('zip_sha256', 'is', null).orderBy('id').limit(20).execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      const zip = Buffer.from(row.zip);
      const sha256 = createHash('sha256').update(zip).digest('hex');
      await raw.insertInto('code_blobs').values({ sha256, zip, size_bytes: zip.length, created_at: row.created_at }).onConflict((oc) => oc.column('sha256').doNothing()).execute();
      await raw.updateTable('code_snapshots').set({ zip_sha256: sha256 }).where('id', '=', row.id).execute();
    }
  }
}

export function marketplace(dialect: DialectName): Migration {
  const ref = refType(dialect);
  const bytes = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('code_blobs')
        .addColumn('sha256', 'text', (c) => c.primaryKey())
        .addColumn('zip', bytes, (c) => c.notNull())
        .addColumn('size_bytes', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.alterTable('code_snapshots').addColumn('zip_sha256', 'text', (c) => c.references('code_blobs.sha256')).execute();
      await moveZipsToBlobs(db);
      await db.schema.alterTable('code_snapshots').dropColumn('zip').execute();
      await db.schema.createIndex('code_snapshots_blob_idx').on('code_snapshots').column('zip_sha256').execute();

      // An installed copy names the listing and version it came from. No foreign key: the
      // copy outlives a deleted listing.
      await db.schema.alterTable('macros').addColumn('installed_listing_id', ref).execute();
      await db.schema.alterTable('macros').addColumn('installed_version', 'integer').execute();
      await db.schema.createIndex('macros_installed_listing_idx').on('macros').columns(['installed_listing_id', 'id']).execute();

      let listings = withId(db.schema.createTable('marketplace_listings'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        // The author's macro that new versions are frozen from; gone when the author deletes it.
        .addColumn('macro_id', ref, (c) => c.references('macros.id').onDelete('set null'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        // JSON array, and the same tags space-separated for the text index.
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('tags_text', 'text', (c) => c.notNull())
        .addColumn('visible', 'integer', (c) => c.notNull())
        .addColumn('hidden_at', 'bigint')
        .addColumn('hidden_reason', 'text')
        .addColumn('latest_version', 'integer', (c) => c.notNull())
        .addColumn('installs', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('rating_sum', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('rating_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('published_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('marketplace_listings_kind_check', oneOf('kind', MACRO_KINDS));
      if (dialect === 'postgres') {
        // Title and tags weigh most, then the summary (ts_rank's A and B weights).
        listings = listings.addColumn('search', sql`tsvector`, (c) =>
          c.generatedAlwaysAs(
            sql`setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', tags_text), 'A') || setweight(to_tsvector('simple', summary), 'B')`,
          ).stored(),
        );
      }
      await listings.execute();
      await db.schema.createIndex('marketplace_listings_user_idx').on('marketplace_listings').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('marketplace_listings_popular_idx').on('marketplace_listings').columns(['installs', 'id']).execute();
      await db.schema.createIndex('marketplace_listings_new_idx').on('marketplace_listings').columns(['published_at', 'id']).execute();
      if (dialect === 'postgres') {
        await sql`create index marketplace_listings_search_idx on marketplace_listings using gin (search)`.execute(db);
      } else {
        // External-content FTS5 index kept in step with the table by triggers, so no write
        // path can forget it.
        await sql`create virtual table marketplace_listings_fts using fts5(title, summary, tags_text, content='marketplace_listings', content_rowid='id', tokenize='unicode61 remove_diacritics 0')`.execute(db);
        await sql`create trigger marketplace_listings_fts_ai after insert on marketplace_listings begin
          insert into marketplace_listings_fts(rowid, title, summary, tags_text) values (new.id, new.title, new.summary, new.tags_text); end`.execute(db);
        await sql`create trigger marketplace_listings_fts_ad after delete on marketplace_listings begin
          insert into marketplace_listings_fts(marketplace_listings_fts, rowid, title, summary, tags_text) values ('delete', old.id, old.title, old.summary, old.tags_text); end`.execute(db);
        await sql`create trigger marketplace_listings_fts_au after update of title, summary, tags_text on marketplace_listings begin
          insert into marketplace_listings_fts(marketplace_listings_fts, rowid, title, summary, tags_text) values ('delete', old.id, old.title, old.summary, old.tags_text);
          insert into marketplace_listings_fts(rowid, title, summary, tags_text) values (new.id, new.title, new.summary, new.tags_text); end`.execute(db);
      }

      await db.schema
        .createTable('marketplace_listing_tags')
        .addColumn('listing_id', ref, (c) => c.notNull().references('marketplace_listings.id').onDelete('cascade'))
        .addColumn('tag', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('marketplace_listing_tags_pk', ['listing_id', 'tag'])
        .execute();
      await db.schema.createIndex('marketplace_listing_tags_tag_idx').on('marketplace_listing_tags').columns(['tag', 'listing_id']).execute();

      // A version is frozen: nothing updates it after insert.
      await withId(db.schema.createTable('marketplace_versions'), dialect)
        .addColumn('listing_id', ref, (c) => c.notNull().references('marketplace_listings.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('notes', 'text')
        .addColumn('worktree_hash', 'text')
        .addColumn('entry_path', 'text')
        .addColumn('size_bytes', 'bigint')
        .addColumn('file_count', 'integer')
        .addColumn('zip_sha256', 'text', (c) => c.references('code_blobs.sha256'))
        .addColumn('blocks', 'text')
        .addColumn('bundle_sha', 'text')
        .addColumn('args', 'text', (c) => c.notNull())
        .addColumn('image_ids', 'text', (c) => c.notNull())
        .addColumn('published_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('marketplace_versions_listing_uq').on('marketplace_versions').columns(['listing_id', 'version']).unique().execute();
      await db.schema.createIndex('marketplace_versions_blob_idx').on('marketplace_versions').column('zip_sha256').execute();

      await withId(db.schema.createTable('marketplace_reviews'), dialect)
        .addColumn('listing_id', ref, (c) => c.notNull().references('marketplace_listings.id').onDelete('cascade'))
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('stars', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('marketplace_reviews_stars_check', sql`stars between 1 and 5`)
        .execute();
      await db.schema.createIndex('marketplace_reviews_listing_user_uq').on('marketplace_reviews').columns(['listing_id', 'user_id']).unique().execute();
      await db.schema.createIndex('marketplace_reviews_listing_idx').on('marketplace_reviews').columns(['listing_id', 'updated_at', 'id']).execute();
    },
  };
}
