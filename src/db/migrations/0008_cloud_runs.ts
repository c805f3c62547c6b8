// Cloud runs (decisions.md §10): the orchestration record of a macro run on a cloud device,
// which is also the runs' job queue (the lease columns), and the pinned bundle each run
// executes, so deleting or re-syncing the macro never changes or breaks a run in flight.
import { type Kysely, type Migration, sql } from 'kysely';
import { refType, withId } from '../columns.js';
import type { DialectName } from '../database.js';

export function cloudRuns(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('cloud_runs'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        // `cr_` + 24 lowercase hex; the run history record carries the same id.
        .addColumn('execution_id', 'text', (c) => c.notNull().unique())
        // No foreign keys to devices and macros: a run record outlives both, like run history.
        .addColumn('device_id', ref, (c) => c.notNull())
        .addColumn('macro_id', ref, (c) => c.notNull())
        .addColumn('macro_kind', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('state_message', 'text')
        // The run's arguments (JSON object), resolved when it was created: the profile's values
        // with the run's own `args` laid over them, pinned like the code.
        .addColumn('args', 'text', (c) => c.notNull())
        // Python runs: the entry file of the pinned snapshot.
        .addColumn('entry_path', 'text')
        // SHA-256 hex of the pinned bundle (the zip, or the program's canonical JSON).
        .addColumn('bundle_sha', 'text', (c) => c.notNull())
        // The snapshot's worktree hash; null for block macros.
        .addColumn('code_ref', 'text')
        // SHA-256 hex of the run's device-RPC token while the run process lives; null otherwise.
        .addColumn('token_hash', 'text')
        .addColumn('started_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .addColumn('locked_until', 'bigint')
        .addColumn('locked_by', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('cloud_runs_user_idx').on('cloud_runs').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('cloud_runs_token_uq').on('cloud_runs').column('token_hash').unique().execute();
      // At most one active run per device, enforced by the database: two concurrent starts
      // on one device cannot both insert (the loser answers 409 device_busy).
      await db.schema
        .createIndex('cloud_runs_device_active_uq')
        .on('cloud_runs')
        .column('device_id')
        .unique()
        .where(sql.ref('state'), 'in', ['launching', 'running', 'stopping'])
        .execute();
      // The queue: runs waiting for a worker, oldest first.
      await db.schema.createIndex('cloud_runs_launching_idx').on('cloud_runs').columns(['created_at', 'id']).where(sql.ref('state'), '=', 'launching').execute();

      await db.schema
        .createTable('cloud_run_bundles')
        .addColumn('run_id', ref, (c) => c.primaryKey().references('cloud_runs.id').onDelete('cascade'))
        .addColumn('content', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .execute();
    },
  };
}
