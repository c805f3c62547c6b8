// Run traces (decisions.md §17, modules/runs/trace): a trace per cloud run, its steps and its
// frames. Like the image library (0015), the pictures live in the database: every process on
// a shared database serves the same trace with no shared disk, and a trace goes with one
// delete. Everything hangs off the run's history record (`executions`), so deleting the
// record (its account) deletes the trace as it deletes the run's logs, and deleting a trace
// (the retention sweep, RUN_TRACE=failures) deletes its steps and frames.
// Numbered 0027: the next after 0026 (0025 is reserved for another branch).
import type { Kysely, Migration } from 'kysely';
import { refType } from '../columns.js';
import type { DialectName } from '../database.js';

export function runTraces(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('run_traces')
        .addColumn('execution_pk', ref, (c) => c.primaryKey().references('executions.id').onDelete('cascade'))
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        // The cloud run (cloud_runs.id): how the device RPC, which knows only the run, finds it.
        .addColumn('run_id', ref, (c) => c.notNull())
        // Wall-clock ms when recording began; a step's at_ms counts from here in every process.
        .addColumn('started_ms', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .addColumn('frames_capped', 'integer', (c) => c.notNull().defaultTo(0))
        // The device's screen in pixels, which element bounds are in (frames are scaled down).
        .addColumn('screen_width', 'integer')
        .addColumn('screen_height', 'integer')
        .addColumn('final_frame', 'text')
        // JSON: the UI tree when a failed run ended.
        .addColumn('final_ui_tree', 'text')
        // JSON array of sentences: writes that failed during the run.
        .addColumn('notes', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('run_traces_run_uq').on('run_traces').column('run_id').unique().execute();
      await db.schema.createIndex('run_traces_created_idx').on('run_traces').column('created_at').execute();
      await db.schema
        .createTable('run_trace_steps')
        .addColumn('execution_pk', ref, (c) => c.notNull().references('run_traces.execution_pk').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        // JSON: the step as the trace route answers it.
        .addColumn('body', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('run_trace_steps_pk', ['execution_pk', 'seq'])
        .execute();
      await db.schema
        .createTable('run_trace_frames')
        .addColumn('execution_pk', ref, (c) => c.notNull().references('run_traces.execution_pk').onDelete('cascade'))
        // `fr_` + 24 hex of the SHA-256 of the decoded pixels: the same picture has the same id.
        .addColumn('frame_id', 'text', (c) => c.notNull())
        .addColumn('content', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('run_trace_frames_pk', ['execution_pk', 'frame_id'])
        .execute();
    },
  };
}
