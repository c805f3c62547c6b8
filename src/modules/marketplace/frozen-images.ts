// A listing's frozen images (migration 0019): copied from the author's library in the
// transaction that writes a version (the images module's `imageCopySource`, so the bytes
// never leave the database), read back by installs. The author deleting an image
// later changes nothing anyone installs. An image id always names the same bytes, so a
// listing keeps one copy per id however many versions name it.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { IMAGE_COPY_BATCH, IMAGE_COPY_COLUMNS, type ImageCopy, imageCopySource } from '../images/index.js';

/**
 * Copies the images `ids` names from the author's library into the listing's frozen images
 * (ids it already holds stay). Answers the ids the listing now holds; an id the author's
 * library does not have is not among them.
 */
export async function freezeImages(trx: Transaction<Database>, listingId: number, authorId: number, ids: readonly string[], now: number): Promise<Set<string>> {
  for (let start = 0; start < ids.length; start += IMAGE_COPY_BATCH) {
    await trx
      .insertInto('marketplace_images')
      .columns(['listing_id', 'image_id', ...IMAGE_COPY_COLUMNS, 'frozen_at'])
      .expression(imageCopySource(trx, { fromUserId: authorId, ids: ids.slice(start, start + IMAGE_COPY_BATCH), owner: listingId, time: now }))
      .onConflict((oc) => oc.columns(['listing_id', 'image_id']).doNothing())
      .execute();
  }
  return frozenIds(trx, listingId, ids);
}

async function frozenIds(db: Kysely<Database> | Transaction<Database>, listingId: number, ids: readonly string[]): Promise<Set<string>> {
  const held = new Set<string>();
  for (let start = 0; start < ids.length; start += IMAGE_COPY_BATCH) {
    const rows = await db.selectFrom('marketplace_images').select('image_id').where('listing_id', '=', listingId).where('image_id', 'in', ids.slice(start, start + IMAGE_COPY_BATCH)).execute();
    for (const row of rows) held.add(row.image_id);
  }
  return held;
}

/** The listing's frozen copies of `ids`, bytes included (an id it does not hold is left out). */
export async function frozenImages(db: Kysely<Database>, listingId: number, ids: readonly string[]): Promise<ImageCopy[]> {
  const found: ImageCopy[] = [];
  for (let start = 0; start < ids.length; start += IMAGE_COPY_BATCH) {
    const rows = await db
      .selectFrom('marketplace_images as f')
      .select(['f.image_id as id', 'f.name', 'f.width', 'f.height', 'f.content_type', 'f.size_bytes', 'f.sha256', 'f.source', 'f.content'])
      .where('f.listing_id', '=', listingId)
      .where('f.image_id', 'in', ids.slice(start, start + IMAGE_COPY_BATCH))
      .execute();
    found.push(...rows);
  }
  return found;
}
