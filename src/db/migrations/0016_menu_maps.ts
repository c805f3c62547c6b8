// Menu maps (decisions.md §13, docs/decisions/0015-menu-maps.md): explorations, which are also
// their job's queue rows (the lease columns), and the maps they learn, one per account and
// package (a unique key, so a new exploration replaces the map in one transaction), with their
// screens and transitions. A device lease can now be held by a job (`held_by_job`): the
// exploration holds its device that way, so runs and tool clients see it busy, and no caller
// can share or extend it.
import { type Kysely, type Migration, sql } from 'kysely';
import { EXPLORATION_STATES, MAP_ACTION_TYPES } from '../../core/values.js';
import { oneOf, refType, withId } from '../columns.js';
import type { DialectName } from '../database.js';

export function menuMaps(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('device_leases').addColumn('held_by_job', 'text').execute();

      await withId(db.schema.createTable('map_explorations'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device_id', ref, (c) => c.references('devices.id').onDelete('set null'))
        .addColumn('package', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('state_message', 'text')
        .addColumn('max_screens', 'integer', (c) => c.notNull())
        .addColumn('max_minutes', 'integer', (c) => c.notNull())
        .addColumn('do_not_touch', 'text', (c) => c.notNull())
        .addColumn('screens_found', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('transitions_found', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('actions', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_id', 'text')
        .addColumn('locked_until', 'bigint')
        .addColumn('locked_by', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('map_explorations_state_check', oneOf('state', EXPLORATION_STATES))
        .execute();
      // The job's due rows: queued explorations, oldest first.
      await db.schema.createIndex('map_explorations_queued_idx').on('map_explorations').columns(['created_at', 'id']).where(sql.ref('state'), '=', 'queued').execute();
      await db.schema.createIndex('map_explorations_user_idx').on('map_explorations').columns(['user_id', 'id']).execute();

      await withId(db.schema.createTable('menu_maps'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('package', 'text', (c) => c.notNull())
        .addColumn('exploration_id', ref, (c) => c.references('map_explorations.id').onDelete('set null'))
        .addColumn('screen_count', 'integer', (c) => c.notNull())
        .addColumn('transition_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('menu_maps_user_package_uq').on('menu_maps').columns(['user_id', 'package']).unique().execute();

      await db.schema
        .createTable('menu_map_screens')
        .addColumn('map_id', ref, (c) => c.notNull().references('menu_maps.id').onDelete('cascade'))
        .addColumn('screen_id', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('activity', 'text')
        .addColumn('element_count', 'integer', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        // The screen's picture in the owner's image library (source `crop`); a deleted image reads as none.
        .addColumn('thumbnail_image_id', 'text')
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('menu_map_screens_pk', ['map_id', 'screen_id'])
        .execute();

      await db.schema
        .createTable('menu_map_transitions')
        .addColumn('map_id', ref, (c) => c.notNull().references('menu_maps.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('from_screen', 'text', (c) => c.notNull())
        .addColumn('to_screen', 'text', (c) => c.notNull())
        .addColumn('action_type', 'text', (c) => c.notNull())
        .addColumn('element', 'text')
        .addPrimaryKeyConstraint('menu_map_transitions_pk', ['map_id', 'position'])
        .addCheckConstraint('menu_map_transitions_action_check', oneOf('action_type', MAP_ACTION_TYPES))
        .execute();
    },
  };
}
