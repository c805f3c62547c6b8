// A trace frame is stored once for every trace that shows it (decisions.md §17; docs/runs.md).
// Frames are named by the SHA-256 of their pixels, and the same app screen recurs run after
// run: before this, each run wrote its own copy (some 100 KB a run on the demo apps), and that
// write was most of what tracing cost a cloud run on SQLite. Now `run_trace_pictures` holds
// each picture once, and `run_trace_frames` only says which trace shows which picture. The
// reference is a foreign key with no cascade, so a picture still shown by a trace can never
// be deleted: the retention sweep deletes pictures no trace shows any more, and a concurrent
// writer that shows one again either locks it first or finds it gone and stores it again.
import { type Kysely, type Migration, sql } from 'kysely';
import { refType } from '../columns.js';
import type { DialectName } from '../database.js';

export function sharedTraceFrames(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('run_trace_pictures')
        // `fr_` + 24 hex of the SHA-256 of the decoded pixels.
        .addColumn('frame_id', 'text', (c) => c.primaryKey())
        .addColumn('content', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // The rows kept so far: one picture per id (equal ids are equal pixels, any copy will do).
      await sql`INSERT INTO run_trace_pictures (frame_id, content, size_bytes, created_at)
        SELECT f.frame_id, f.content, f.size_bytes, f.created_at FROM run_trace_frames f
        WHERE f.execution_pk = (SELECT MIN(g.execution_pk) FROM run_trace_frames g WHERE g.frame_id = f.frame_id)`.execute(db);
      await db.schema
        .createTable('run_trace_frames_shown')
        .addColumn('execution_pk', ref, (c) => c.notNull().references('run_traces.execution_pk').onDelete('cascade'))
        .addColumn('frame_id', 'text', (c) => c.notNull().references('run_trace_pictures.frame_id'))
        .addPrimaryKeyConstraint('run_trace_frames_shown_pk', ['execution_pk', 'frame_id'])
        .execute();
      await sql`INSERT INTO run_trace_frames_shown (execution_pk, frame_id) SELECT execution_pk, frame_id FROM run_trace_frames`.execute(db);
      await db.schema.dropTable('run_trace_frames').execute();
      await db.schema.alterTable('run_trace_frames_shown').renameTo('run_trace_frames').execute();
      // The sweep looks for pictures no trace shows: by frame id on the referencing side.
      await db.schema.createIndex('run_trace_frames_frame_idx').on('run_trace_frames').column('frame_id').execute();
    },
  };
}
