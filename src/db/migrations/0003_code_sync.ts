// Code sync: per-macro code snapshots (deduplicated by worktree hash, the zip kept in the
// database so every process on a shared database can read it), each code macro's current
// snapshot, and the image library that image references are checked against.
import type { Kysely, Migration } from 'kysely';
import { refType, withId } from '../columns.js';
import type { DialectName } from '../database.js';

export function codeSync(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('code_snapshots'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        // Deleting the macro deletes its snapshots.
        .addColumn('macro_id', ref, (c) => c.notNull().references('macros.id').onDelete('cascade'))
        .addColumn('worktree_hash', 'text', (c) => c.notNull())
        .addColumn('entry_path', 'text', (c) => c.notNull())
        .addColumn('size_bytes', 'bigint', (c) => c.notNull())
        .addColumn('file_count', 'integer', (c) => c.notNull())
        .addColumn('zip', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // One row per tree and macro: the same upload again finds it instead of storing a copy.
      await db.schema.createIndex('code_snapshots_macro_hash_uq').on('code_snapshots').columns(['macro_id', 'worktree_hash']).unique().execute();

      // The current snapshot is an explicit pointer, so making an older snapshot current again
      // is one write and never depends on timestamps that can tie.
      await db.schema
        .createTable('code_sync_state')
        .addColumn('macro_id', ref, (c) => c.primaryKey().references('macros.id').onDelete('cascade'))
        .addColumn('snapshot_id', ref, (c) => c.notNull().references('code_snapshots.id').onDelete('cascade'))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('code_sync_state_snapshot_idx').on('code_sync_state').column('snapshot_id').execute();

      // The image library. Only what `unknown_image` needs for now; its routes come later.
      await db.schema
        .createTable('images')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('images_user_idx').on('images').columns(['user_id', 'id']).execute();
    },
  };
}
