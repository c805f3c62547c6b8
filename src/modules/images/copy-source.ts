// The one place a picture is copied out of a library inside the database: an
// `INSERT … SELECT` source other stores fill from (another account's library, a marketplace
// listing's frozen pictures). The bytes never pass through this process, and only the images
// module reads the `images` table.
import { type Kysely, type SelectQueryBuilder, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Ids per statement: well inside both engines' parameter limits. */
export const IMAGE_COPY_BATCH = 500;

/**
 * What a copy of a picture carries, in the order `imageCopySource` selects it, between the
 * copy's owner column first and its time column last: `[owner, id, …IMAGE_COPY_COLUMNS, time]`.
 */
export const IMAGE_COPY_COLUMNS = ['name', 'width', 'height', 'content_type', 'size_bytes', 'sha256', 'source', 'content'] as const;

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * `fromUserId`'s pictures among `ids` (at most `IMAGE_COPY_BATCH`) as rows of
 * `[owner, id, …IMAGE_COPY_COLUMNS, time]`, `owner` and `time` being the constants given: the
 * source of an `INSERT … SELECT` into a store whose columns are listed in that order. An id
 * the library does not hold yields no row.
 */
export function imageCopySource(db: Executor, input: { fromUserId: number; ids: readonly string[]; owner: number; time: number }) {
  if (input.ids.length > IMAGE_COPY_BATCH) throw new Error(`imageCopySource takes at most ${IMAGE_COPY_BATCH} ids`);
  const query: SelectQueryBuilder<Database, 'images', object> = db.selectFrom('images');
  return query
    .select([sql<number>`cast(${input.owner} as bigint)`.as('owner'), 'id', ...IMAGE_COPY_COLUMNS, sql<number>`cast(${input.time} as bigint)`.as('time')])
    .where('user_id', '=', input.fromUserId)
    .where('id', 'in', input.ids.length > 0 ? [...input.ids] : ['']);
}
