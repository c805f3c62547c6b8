// A listing's frozen images (migration 0019): copied from the author's library in the
// transaction that writes a version, read back by installs. The author deleting an image
// later changes nothing anyone installs. An image id always names the same bytes, so a
// listing keeps one copy per id however many versions name it.
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ImageCopy } from '../images/index.js';

/** Ids per statement: well inside both engines' parameter limits. */
const BATCH = 500;

/**
 * Copies the images `ids` names from the author's library into the listing's frozen images
 * (ids it already holds stay). Answers the ids the listing now holds; an id the author's
 * library does not have is not among them.
 */
export async function freezeImages(trx: Transaction<Database>, listingId: number, authorId: number, ids: readonly string[], now: number): Promise<Set<string>> {
  for (let start = 0; start < ids.length; start += BATCH) {
    const slice = ids.slice(start, start + BATCH);
    await trx
      .insertInto('marketplace_images')
      .columns(['listing_id', 'image_id', 'name', 'width', 'height', 'content_type', 'size_bytes', 'sha256', 'source', 'content', 'frozen_at'])
      .expression((eb) =>
        eb
          .selectFrom('images')
          .select([
            sql<number>`cast(${listingId} as bigint)`.as('listing_id'),
            'id',
            'name',
            'width',
            'height',
            'content_type',
            'size_bytes',
            'sha256',
            'source',
            'content',
            sql<number>`cast(${now} as bigint)`.as('frozen_at'),
          ])
          .where('user_id', '=', authorId)
          .where('id', 'in', slice),
      )
      .onConflict((oc) => oc.columns(['listing_id', 'image_id']).doNothing())
      .execute();
  }
  return frozenIds(trx, listingId, ids);
}

async function frozenIds(db: Kysely<Database> | Transaction<Database>, listingId: number, ids: readonly string[]): Promise<Set<string>> {
  const held = new Set<string>();
  for (let start = 0; start < ids.length; start += BATCH) {
    const rows = await db.selectFrom('marketplace_images').select('image_id').where('listing_id', '=', listingId).where('image_id', 'in', ids.slice(start, start + BATCH)).execute();
    for (const row of rows) held.add(row.image_id);
  }
  return held;
}

/** The listing's frozen copies of `ids` that `userId`'s library does not hold yet, bytes included. */
export async function frozenImagesMissingFrom(db: Kysely<Database>, listingId: number, userId: number, ids: readonly string[]): Promise<ImageCopy[]> {
  const found: ImageCopy[] = [];
  for (let start = 0; start < ids.length; start += BATCH) {
    const rows = await db
      .selectFrom('marketplace_images as f')
      .select(['f.image_id as id', 'f.name', 'f.width', 'f.height', 'f.content_type', 'f.size_bytes', 'f.sha256', 'f.source', 'f.content'])
      .where('f.listing_id', '=', listingId)
      .where('f.image_id', 'in', ids.slice(start, start + BATCH))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('images as i').select('i.id').where('i.user_id', '=', userId).whereRef('i.id', '=', 'f.image_id'))))
      .execute();
    found.push(...rows);
  }
  return found;
}
