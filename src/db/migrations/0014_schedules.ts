// Schedules and their occurrences (issue 20, decisions.md §14). A schedule is its own queue
// row (docs/decisions/0003-background-work.md): due when enabled and `next_fire_at` has come.
// An occurrence is unique on (schedule, fire time, device), so a second worker's insert of the
// same occurrence does nothing and two workers can never both start it. A schedule whose
// macro, device or group is deleted loses that reference (ON DELETE SET NULL) and reads as
// disabled with the matching reason; the scheduler module owns both tables.
import { type Kysely, type Migration, sql } from 'kysely';
import { FLAG_VALUES, OCCURRENCE_OUTCOMES, SCHEDULE_TARGETS } from '../../core/values.js';
import { oneOf, refType, withId } from '../columns.js';
import type { DialectName } from '../database.js';

export function schedules(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('schedules'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('macro_id', ref, (c) => c.references('macros.id').onDelete('set null'))
        // Which of device_id and group_id the schedule was made for; both stay null once it is deleted.
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('device_id', ref, (c) => c.references('devices.id').onDelete('set null'))
        .addColumn('group_id', ref, (c) => c.references('device_groups.id').onDelete('set null'))
        .addColumn('cron', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('args', 'text')
        .addColumn('enabled', 'integer', (c) => c.notNull())
        // Set only by the service (`failing`); the deleted-target reasons are read from the nulls.
        .addColumn('disabled_reason', 'text')
        .addColumn('next_fire_at', 'bigint')
        .addColumn('last_fire_at', 'bigint')
        // Runs started from this moment count towards the failure streak (a person's enable resets it).
        .addColumn('streak_from', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint')
        .addColumn('locked_by', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('schedules_target_check', oneOf('target', SCHEDULE_TARGETS))
        .addCheckConstraint('schedules_enabled_check', oneOf('enabled', FLAG_VALUES))
        .execute();
      await db.schema.createIndex('schedules_user_idx').on('schedules').columns(['user_id', 'id']).execute();
      // The queue: only enabled schedules are indexed, so the claim scans due work and nothing else.
      await db.schema.createIndex('schedules_due_idx').on('schedules').columns(['next_fire_at', 'id']).where(sql.ref('enabled'), '=', 1).execute();

      await withId(db.schema.createTable('schedule_occurrences'), dialect)
        .addColumn('schedule_id', ref, (c) => c.notNull().references('schedules.id').onDelete('cascade'))
        .addColumn('fire_at', 'bigint', (c) => c.notNull())
        // 0 when a group had no cloud device at fire time (one occurrence says so); no foreign
        // key: the record outlives the device.
        .addColumn('device_id', ref, (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('execution_id', 'text')
        .addColumn('run_id', ref)
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('schedule_occurrences_outcome_check', oneOf('outcome', OCCURRENCE_OUTCOMES))
        .execute();
      // Exactly once per fire time and device, however many workers race (insert-or-nothing).
      await db.schema.createIndex('schedule_occurrences_once_uq').on('schedule_occurrences').columns(['schedule_id', 'fire_at', 'device_id']).unique().execute();
    },
  };
}
