// The recorder (decisions.md §18, modules/recorder): a recording of what a person did on a
// cloud device's live view, and its steps, each with the screen just before the input (JPEG,
// as a trace frame). Everything hangs off the device and its owner, so deleting the device or
// the account deletes its recordings, as it deletes the device's lease and run history.
import type { Kysely, Migration } from 'kysely';
import { RECORDING_STATES } from '../../core/values.js';
import { oneOf, refType } from '../columns.js';
import type { DialectName } from '../database.js';

export function recordings(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('recordings')
        // `rec_` + 24 lowercase hex: the handle the console holds.
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device_id', ref, (c) => c.notNull().references('devices.id').onDelete('cascade'))
        // The device_leases row that holds the device while recording (held_by_job names the recording).
        .addColumn('lease_id', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        // The next step's seq: taken with an update, so two inputs at once never share one.
        .addColumn('next_seq', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        // The hold's expiry, extended by every input; past it the recording has ended.
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        // JSON: the macros saved from it ({id, name, kind}), so Replay offers them after a reload.
        .addColumn('saved', 'text', (c) => c.notNull().defaultTo('[]'))
        .addCheckConstraint('recordings_state_check', oneOf('state', RECORDING_STATES))
        .execute();
      await db.schema.createIndex('recordings_device_idx').on('recordings').columns(['device_id', 'state']).execute();
      await db.schema.createIndex('recordings_user_idx').on('recordings').column('user_id').execute();
      await db.schema
        .createTable('recording_steps')
        .addColumn('recording_id', 'text', (c) => c.notNull().references('recordings.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        // JSON: the step as the routes answer it, less its frame_url.
        .addColumn('body', 'text', (c) => c.notNull())
        // JPEG, longest edge 720 px, quality 70 (a trace frame): the screen before the input.
        .addColumn('frame', dialect === 'postgres' ? 'bytea' : 'blob')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('recording_steps_pk', ['recording_id', 'seq'])
        .execute();
    },
  };
}
