// Device leases (decisions.md §9) and the message that explains a device's `error` state.
// A lease lends one cloud device to one caller (a tool client) until it is released, expires
// or the device stops. The primary key on `device_id` makes "at most one lease per device" a
// database rule; leasing again extends the same row. Leases and active runs exclude each
// other: both writers lock the device row first (`lockDeviceRow`, src/db/locks.ts), then check the
// other table, so a lease and a run cannot both win a race.
import type { Kysely, Migration } from 'kysely';
import { refType } from '../columns.js';
import type { DialectName } from '../database.js';

export function deviceLeases(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('devices').addColumn('hosted_state_message', 'text').execute();

      await db.schema
        .createTable('device_leases')
        .addColumn('device_id', ref, (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
        // The handle a tool client holds: `lease_` + 24 lowercase hex.
        .addColumn('lease_id', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        // The key (or the key behind a tool-server token) that took the lease; null for a session.
        .addColumn('key_id', ref)
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // Expired leases are swept by expiry time.
      await db.schema.createIndex('device_leases_expires_idx').on('device_leases').column('expires_at').execute();
    },
  };
}
