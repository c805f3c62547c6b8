// Device hosts: where each running cloud device is placed (for `adb`, the serial it is bound
// to; the unique slot makes two processes unable to bind one phone twice), the simulated
// devices' state (so any process can drive them), and the labels of APKs installed through
// the service on ADB devices (a device reports package names, not labels).
import type { Kysely, Migration } from 'kysely';
import { refType } from '../columns.js';
import type { DialectName } from '../database.js';

export function deviceHosts(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('device_placements')
        .addColumn('device_id', ref, (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
        .addColumn('host', 'text', (c) => c.notNull())
        // `host:port/serial` on adb; null on sim, which has no real slots.
        .addColumn('slot', 'text')
        .addColumn('server', 'text')
        .addColumn('serial', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        // Read from the device when it became ready (adb), so drivers need not ask each time.
        .addColumn('screen_width', 'integer')
        .addColumn('screen_height', 'integer')
        .addColumn('density', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // Several nulls are allowed on both engines, so only real slots are exclusive.
      await db.schema.createIndex('device_placements_slot_uq').on('device_placements').column('slot').unique().execute();

      await db.schema
        .createTable('sim_devices')
        .addColumn('device_id', ref, (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
        .addColumn('booted', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('installed', 'text', (c) => c.notNull())
        // Bumped by every write; a writer that read an older version retries (compare-and-set).
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('apk_labels')
        .addColumn('package', 'text', (c) => c.notNull())
        .addColumn('version_code', 'bigint', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('version_name', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('apk_labels_pk', ['package', 'version_code'])
        .execute();
    },
  };
}
