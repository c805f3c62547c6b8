// The image library (app-api.md "Image library"): pictures a person uploads or crops from a
// device screen, which macros refer to by id (`img_` + 16 hex, decisions.md §5).
//
// 0003 made `images` with only id, user_id and created_at so code sync could check ids; no
// route, tool or worker ever wrote a row to it (it had no bytes to hold), so the table is
// rebuilt here rather than altered: its primary key changes. It becomes (user_id, id), not
// id alone, because a macro's code names its images literally: a copy of a macro in another
// account (a marketplace install) only runs unchanged if that account's library holds the
// same ids. Every read already filters by owner, so an id is only ever looked up per user.
//
// The bytes live in the row, as code snapshots keep their zip (0003): every `serve` and
// `worker` process on a shared database reads the same library with no shared disk, an
// image and its record are written and deleted in one transaction (no orphan files, no
// record without bytes), and a backup of the database is a backup of the library. At most
// 5 MiB an image keeps rows well inside both engines' limits; list queries name their
// columns and never read `content`.
import { type Kysely, type Migration, sql } from 'kysely';
import { oneOf, refType } from '../columns.js';
import type { DialectName } from '../database.js';
import { IMAGE_CONTENT_TYPES, IMAGE_SOURCES } from '../../core/values.js';

export function imageLibrary(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from images`.execute(db);
      // Never drop a record silently: a database where something did write 0003's table
      // (none of this service's code does) stops here with a message instead.
      if (Number(rows[0]?.n ?? 0) > 0) throw new Error('0015_image_library: the images table holds rows from before the image library; they have no picture to keep. Move them aside (they are only ids) and migrate again.');
      await db.schema.dropTable('images').execute();
      await db.schema
        .createTable('images')
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull().check(oneOf('content_type', IMAGE_CONTENT_TYPES)))
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull().check(oneOf('source', IMAGE_SOURCES)))
        .addColumn('content', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('images_pk', ['user_id', 'id'])
        .execute();
    },
  };
}
