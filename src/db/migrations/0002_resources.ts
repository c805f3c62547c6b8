// Macros, device groups, devices, settings profiles, run history, run logs and events.
import type { Kysely, Migration } from 'kysely';
import { EXECUTION_TYPES, FLAG_VALUES, GROUP_KINDS, HOSTED_STATES, MACRO_KINDS, RUN_STATUSES } from '../../core/values.js';
import { oneOf, refType, withId } from '../columns.js';
import type { DialectName } from '../database.js';

export function resources(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('macros'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('blocks', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('macros_kind_check', oneOf('kind', MACRO_KINDS))
        .execute();
      await db.schema.createIndex('macros_user_idx').on('macros').columns(['user_id', 'id']).execute();

      await withId(db.schema.createTable('device_groups'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('device_groups_kind_check', oneOf('kind', GROUP_KINDS))
        .execute();
      await db.schema.createIndex('device_groups_user_idx').on('device_groups').columns(['user_id', 'id']).execute();

      await withId(db.schema.createTable('macro_setting_profiles'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('macro_id', ref, (c) => c.notNull().references('macros.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('args', 'text', (c) => c.notNull())
        .addColumn('is_default', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('macro_setting_profiles_is_default_check', oneOf('is_default', FLAG_VALUES))
        .execute();
      // Unique per macro: two concurrent creates of one name cannot both win.
      await db.schema.createIndex('profiles_macro_name_uq').on('macro_setting_profiles').columns(['macro_id', 'name']).unique().execute();

      await withId(db.schema.createTable('devices'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('port', 'integer')
        .addColumn('is_hosted', 'integer', (c) => c.notNull())
        .addColumn('hosted_state', 'text')
        .addColumn('group_id', ref, (c) => c.references('device_groups.id').onDelete('set null'))
        .addColumn('macro_id', ref, (c) => c.references('macros.id').onDelete('set null'))
        .addColumn('profile_id', ref, (c) => c.references('macro_setting_profiles.id').onDelete('set null'))
        // Kept in the same transaction as each new run record, so it is exact at every moment
        // without counting a million history rows per listed device.
        .addColumn('run_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('devices_is_hosted_check', oneOf('is_hosted', FLAG_VALUES))
        .addCheckConstraint('devices_hosted_state_check', oneOf('hosted_state', HOSTED_STATES))
        .execute();
      await db.schema.createIndex('devices_user_idx').on('devices').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('devices_group_idx').on('devices').column('group_id').execute();
      await db.schema.createIndex('devices_macro_idx').on('devices').column('macro_id').execute();
      await db.schema.createIndex('devices_profile_idx').on('devices').column('profile_id').execute();

      // Run history. No foreign keys to macros or devices: history outlives both and keeps
      // their names as they were when the run started.
      await withId(db.schema.createTable('executions'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('execution_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('macro_id', ref)
        .addColumn('macro_name', 'text')
        .addColumn('device_id', ref)
        .addColumn('device_name', 'text')
        .addColumn('device_port', 'integer')
        .addColumn('group_id', ref)
        .addColumn('execution_type', 'text', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .addColumn('duration_ms', 'bigint')
        .addColumn('exit_code', 'integer')
        .addColumn('error_message', 'text')
        .addColumn('proxy_exit_ip', 'text')
        .addColumn('proxy_country', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('executions_status_check', oneOf('status', RUN_STATUSES))
        .addCheckConstraint('executions_execution_type_check', oneOf('execution_type', EXECUTION_TYPES))
        .execute();
      await db.schema.createIndex('executions_user_execution_uq').on('executions').columns(['user_id', 'execution_id']).unique().execute();
      // Newest-first pages, with and without each filter, walk one of these in order.
      await db.schema.createIndex('executions_user_started_idx').on('executions').columns(['user_id', 'started_at', 'id']).execute();
      await db.schema.createIndex('executions_status_idx').on('executions').columns(['user_id', 'status', 'started_at', 'id']).execute();
      await db.schema.createIndex('executions_device_idx').on('executions').columns(['user_id', 'device_id', 'started_at', 'id']).execute();
      await db.schema.createIndex('executions_macro_idx').on('executions').columns(['user_id', 'macro_id', 'started_at', 'id']).execute();

      // Run logs, shipped in batches; `seq` numbers the batches of one run 1, 2, 3, …, and
      // `line_start` is the run-wide number of a batch's first line, so the newest N lines
      // are found without reading older batches.
      await withId(db.schema.createTable('run_log_batches'), dialect)
        .addColumn('execution_pk', ref, (c) => c.notNull().references('executions.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('line_start', 'bigint', (c) => c.notNull())
        .addColumn('line_count', 'integer', (c) => c.notNull())
        .addColumn('lines', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('run_log_batches_seq_uq').on('run_log_batches').columns(['execution_pk', 'seq']).unique().execute();
      await db.schema.createIndex('run_log_batches_line_idx').on('run_log_batches').columns(['execution_pk', 'line_start']).execute();

      // Events: written in the same transaction as the change they report; the webhook
      // worker fans them out into deliveries.
      await withId(db.schema.createTable('events'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('device_id', ref)
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_user_idx').on('events').columns(['user_id', 'id']).execute();
    },
  };
}
