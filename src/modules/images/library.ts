// The image library: each account's pictures, stored with their bytes (migration 0015 says
// why in the database), named by `img_` + 16 hex. Every read and write filters by owner, so
// another account's id is simply not found. Images are immutable: an id always names the
// same bytes, which is what lets a copy keep its id in another account.
import type { Kysely, Selectable } from 'kysely';
import type { ServiceContext } from '../../core/context.js';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../../core/errors.js';
import { offsetOf, pageOf, pageRequest } from '../../core/paging.js';
import type { ImageContentType, ImageSource } from '../../core/values.js';
import type { Database, ImagesTable } from '../../db/schema.js';
import { containsInsensitive } from '../../db/text.js';
import { type Clock, toIso } from '../../lib/clock.js';
import { randomHex, sha256Hex } from '../../lib/crypto.js';
import { decodeBase64Strict, decodedLength } from '../../lib/base64.js';
import { IMAGE_COPY_BATCH, IMAGE_COPY_COLUMNS, imageCopySource } from './copy-source.js';
import { checkImageBytes, IMAGE_MAX_BYTES } from './image-bytes.js';

/** decisions.md §5. */
export const IMAGE_ID_PATTERN = /^img_[0-9a-f]{16}$/;
/** Ids per query: keeps an IN list well inside both engines' parameter limits. */
const BATCH = 500;

/** Which of `ids` the user's library holds: for a caller with a handle of its own (a menu map's thumbnails), as `ImageLibrary.ownedIds`. */
export async function ownedImageIds(db: Kysely<Database>, userId: number, ids: readonly string[]): Promise<Set<string>> {
  const owned = new Set<string>();
  const wanted = [...new Set(ids.filter((id) => IMAGE_ID_PATTERN.test(id)))];
  for (let start = 0; start < wanted.length; start += BATCH) {
    const rows = await db.selectFrom('images').select('id').where('user_id', '=', userId).where('id', 'in', wanted.slice(start, start + BATCH)).execute();
    for (const row of rows) owned.add(row.id);
  }
  return owned;
}

/** Every column but the bytes, which only the content route and the engines read. */
const RECORD = ['id', 'name', 'width', 'height', 'content_type', 'size_bytes', 'source', 'created_at'] as const;
type RecordRow = Pick<Selectable<ImagesTable>, (typeof RECORD)[number]>;

/** Whose library a call reads or writes: a ServiceContext, or a run's owner. */
export type LibraryOwner = Pick<ServiceContext, 'userId'>;

export interface ImageRecord {
  id: string;
  name: string;
  width: number;
  height: number;
  content_type: ImageContentType;
  size_bytes: number;
  source: ImageSource;
  created_at: string;
}

/** A picture with its id and bytes, as another store keeps it (see `adopt`). */
export type ImageCopy = Omit<Selectable<ImagesTable>, 'user_id' | 'created_at'>;

export interface StoreImageInput {
  /** 1 to 100 characters once trimmed (the route's schema checks it; tools pass checked names too). */
  name: string;
  bytes: Buffer;
  source: ImageSource;
}

export interface ImageListInput {
  page?: number;
  page_size?: number;
  name?: string;
  source?: ImageSource;
}

export interface ImageContent {
  bytes: Buffer;
  contentType: ImageContentType;
  sha256: string;
}

export function presentImage(row: RecordRow): ImageRecord {
  return {
    id: row.id,
    name: row.name,
    width: row.width,
    height: row.height,
    content_type: row.content_type,
    size_bytes: Number(row.size_bytes),
    source: row.source,
    created_at: toIso(row.created_at),
  };
}

const notFound = () => new NotFoundError('No image with this id in your image library.');

export class ImageLibrary {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** Checks the picture (413 over 5 MiB, 422 `invalid_image` / `image_too_large`), then stores it under a new id. */
  async store(ctx: LibraryOwner, input: StoreImageInput): Promise<ImageRecord> {
    const checked = await checkImageBytes(input.bytes);
    const values = {
      user_id: ctx.userId,
      name: input.name.trim(),
      width: checked.width,
      height: checked.height,
      content_type: checked.contentType,
      size_bytes: input.bytes.length,
      sha256: sha256Hex(input.bytes),
      source: input.source,
      content: input.bytes,
      created_at: this.clock.now(),
    };
    // 64 random bits: a collision within one account is all but impossible, and harmless.
    for (;;) {
      const row = await this.db
        .insertInto('images')
        .values({ ...values, id: `img_${randomHex(8)}` })
        .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
        .returning(RECORD)
        .executeTakeFirst();
      if (row) return presentImage(row);
    }
  }

  /** POST /api/images: the picture arrives as strict base64 (a damaged upload is refused, never decoded into other bytes). */
  async upload(ctx: LibraryOwner, input: { name: string; image_base64: string }): Promise<ImageRecord> {
    if (decodedLength(input.image_base64) > IMAGE_MAX_BYTES) throw new PayloadTooLargeError(IMAGE_MAX_BYTES);
    const bytes = decodeBase64Strict(input.image_base64);
    if (!bytes) throw new ValidationError([{ path: 'body.image_base64', message: 'must be standard base64 (RFC 4648, padded)' }]);
    return this.store(ctx, { name: input.name, bytes, source: 'upload' });
  }

  async get(ctx: LibraryOwner, id: string): Promise<ImageRecord> {
    if (!IMAGE_ID_PATTERN.test(id)) throw notFound();
    const row = await this.db.selectFrom('images').select(RECORD).where('user_id', '=', ctx.userId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return presentImage(row);
  }

  /** The stored bytes, exactly as uploaded or cropped. */
  async content(ctx: LibraryOwner, id: string): Promise<ImageContent> {
    if (!IMAGE_ID_PATTERN.test(id)) throw notFound();
    const row = await this.db
      .selectFrom('images')
      .select(['content', 'content_type', 'sha256'])
      .where('user_id', '=', ctx.userId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound();
    return { bytes: Buffer.from(row.content), contentType: row.content_type, sha256: row.sha256 };
  }

  /** The SHA-256 of the image's bytes (an id always names the same bytes), without reading them; 404 like `get`. */
  async fingerprint(ctx: LibraryOwner, id: string): Promise<string> {
    if (!IMAGE_ID_PATTERN.test(id)) throw notFound();
    const row = await this.db.selectFrom('images').select('sha256').where('user_id', '=', ctx.userId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return row.sha256;
  }

  /** Newest first; `name` is a case-insensitive substring (decisions.md §2). */
  async list(ctx: LibraryOwner, input: ImageListInput) {
    const page = pageRequest(input);
    let query = this.db.selectFrom('images').where('user_id', '=', ctx.userId);
    if (input.name) query = query.where(containsInsensitive('name', input.name));
    if (input.source) query = query.where('source', '=', input.source);
    const [{ total }, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      query.select(RECORD).orderBy('created_at', 'desc').orderBy('id').limit(page.pageSize).offset(offsetOf(page)).execute(),
    ]);
    return pageOf(page, Number(total), rows.map(presentImage));
  }

  /** Deleting an image a macro still names makes that macro's step fail with "no image …"; code sync warns about it on the next upload. */
  async remove(ctx: LibraryOwner, id: string): Promise<void> {
    if (!IMAGE_ID_PATTERN.test(id)) throw notFound();
    const result = await this.db.deleteFrom('images').where('user_id', '=', ctx.userId).where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound();
  }

  /** Which of `ids` the user's library holds (code sync's `unknown_image`, run validation). */
  ownedIds(userId: number, ids: readonly string[]): Promise<Set<string>> {
    return ownedImageIds(this.db, userId, ids);
  }

  /**
   * Puts pictures kept elsewhere (a marketplace version's frozen images) into the owner's
   * library under their own ids. An id the library already holds stays as it is: an id
   * always names the same bytes. Answers the ids added.
   */
  async adopt(owner: LibraryOwner, images: readonly ImageCopy[]): Promise<string[]> {
    const now = this.clock.now();
    const added: string[] = [];
    for (const image of images) {
      if (!IMAGE_ID_PATTERN.test(image.id)) continue;
      const result = await this.db
        .insertInto('images')
        .values({ ...image, content: Buffer.from(image.content), user_id: owner.userId, created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) added.push(image.id);
    }
    return added;
  }

  /**
   * Copies images of `fromUserId` into `toUserId`'s library under the same ids, so code that
   * names them runs unchanged there. The bytes are copied inside the database and never pass
   * through this process (`imageCopySource`). An id the target already holds is left as it is
   * (ids name immutable pictures, so it is the same one). Answers which ids were copied,
   * which were already there, and which the source does not hold.
   */
  async copy(_ctx: LibraryOwner, fromUserId: number, toUserId: number, ids: readonly string[]) {
    const wanted = [...new Set(ids)];
    const present = await this.ownedIds(fromUserId, wanted);
    const before = await this.ownedIds(toUserId, wanted);
    const toCopy = wanted.filter((id) => present.has(id) && !before.has(id));
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      for (let start = 0; start < toCopy.length; start += IMAGE_COPY_BATCH) {
        await trx
          .insertInto('images')
          .columns(['user_id', 'id', ...IMAGE_COPY_COLUMNS, 'created_at'])
          .expression(imageCopySource(trx, { fromUserId, ids: toCopy.slice(start, start + IMAGE_COPY_BATCH), owner: toUserId, time: now }))
          // A concurrent copy of the same id: the first one stands, it is the same picture.
          .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
          .execute();
      }
    });
    return { copied: toCopy, already_present: wanted.filter((id) => before.has(id)), missing: wanted.filter((id) => !present.has(id)) };
  }
}
