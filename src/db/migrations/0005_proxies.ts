// Proxies, their assignments to devices, the audit of revealed passwords, and bandwidth
// usage (raw samples plus a per-day roll-up that the usage report reads).
import { type Kysely, type Migration, sql } from 'kysely';
import { FLAG_VALUES, GATEWAYS, PROXY_CHECK_ERRORS, PROXY_MODES, PROXY_SCHEMES, PROXY_STATUSES, SESSION_TYPES } from '../../core/values.js';
import { oneOf, refType, withId } from '../columns.js';
import type { DialectName } from '../database.js';

export function proxies(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('proxies'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('scheme', 'text', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('port', 'integer', (c) => c.notNull())
        // '' when there is none, so the duplicate rule below is one plain unique index.
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('password_enc', 'text')
        .addColumn('session_type', 'text', (c) => c.notNull())
        .addColumn('gateway', 'text')
        .addColumn('targeting', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('last_check_at', 'bigint')
        .addColumn('last_exit_ip', 'text')
        .addColumn('last_exit_country', 'text')
        .addColumn('last_exit_city', 'text')
        .addColumn('last_exit_asn', 'integer')
        .addColumn('last_latency_ms', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('proxies_mode_check', oneOf('mode', PROXY_MODES))
        .addCheckConstraint('proxies_scheme_check', oneOf('scheme', PROXY_SCHEMES))
        .addCheckConstraint('proxies_session_type_check', oneOf('session_type', SESSION_TYPES))
        .addCheckConstraint('proxies_gateway_check', oneOf('gateway', GATEWAYS))
        .addCheckConstraint('proxies_status_check', oneOf('status', PROXY_STATUSES))
        .addCheckConstraint('proxies_last_error_check', oneOf('last_error', PROXY_CHECK_ERRORS))
        .execute();
      // decisions.md §6: (scheme, host, port, username) is a duplicate within an account;
      // the index makes two concurrent imports of one line unable to both win.
      await db.schema.createIndex('proxies_identity_uq').on('proxies').columns(['user_id', 'scheme', 'host', 'port', 'username']).unique().execute();
      await db.schema.createIndex('proxies_user_idx').on('proxies').columns(['user_id', 'id']).execute();

      await withId(db.schema.createTable('proxy_assignments'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('proxy_id', ref, (c) => c.notNull().references('proxies.id').onDelete('cascade'))
        .addColumn('device_id', ref, (c) => c.notNull().references('devices.id').onDelete('cascade'))
        .addColumn('session_type', 'text', (c) => c.notNull())
        .addColumn('session_id', 'text')
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .addCheckConstraint('proxy_assignments_session_type_check', oneOf('session_type', SESSION_TYPES))
        .addCheckConstraint('proxy_assignments_active_check', oneOf('active', FLAG_VALUES))
        .execute();
      // At most one active assignment per device, enforced by the database itself.
      await db.schema.createIndex('proxy_assignments_device_active_uq').on('proxy_assignments').column('device_id').unique().where(sql.ref('active'), '=', 1).execute();
      await db.schema.createIndex('proxy_assignments_user_idx').on('proxy_assignments').columns(['user_id', 'active', 'id']).execute();
      await db.schema.createIndex('proxy_assignments_proxy_idx').on('proxy_assignments').columns(['proxy_id', 'active']).execute();

      // One row per password reveal; kept when the assignment or proxy goes (no cascade from them).
      await withId(db.schema.createTable('proxy_secret_reveals'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('assignment_id', ref, (c) => c.notNull())
        .addColumn('proxy_id', ref, (c) => c.notNull())
        .addColumn('api_key_id', ref)
        .addColumn('session_id', ref)
        .addColumn('client_address', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('proxy_secret_reveals_user_idx').on('proxy_secret_reveals').columns(['user_id', 'id']).execute();

      await withId(db.schema.createTable('proxy_usage_samples'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('proxy_id', ref, (c) => c.notNull().references('proxies.id').onDelete('cascade'))
        .addColumn('device_id', ref)
        .addColumn('bytes_up', 'bigint', (c) => c.notNull())
        .addColumn('bytes_down', 'bigint', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('proxy_usage_samples_user_at_idx').on('proxy_usage_samples').columns(['user_id', 'at']).execute();
      await db.schema.createIndex('proxy_usage_samples_proxy_idx').on('proxy_usage_samples').column('proxy_id').execute();

      // The report reads this: one row per (UTC day, proxy, device), so a month is a few
      // thousand rows however many samples arrived. device_id 0 = a sample with no device.
      await db.schema
        .createTable('proxy_usage_daily')
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('day', 'bigint', (c) => c.notNull())
        .addColumn('proxy_id', ref, (c) => c.notNull().references('proxies.id').onDelete('cascade'))
        .addColumn('device_id', ref, (c) => c.notNull())
        .addColumn('bytes_up', 'bigint', (c) => c.notNull())
        .addColumn('bytes_down', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('proxy_usage_daily_pk', ['user_id', 'day', 'proxy_id', 'device_id'])
        .execute();
      await db.schema.createIndex('proxy_usage_daily_proxy_idx').on('proxy_usage_daily').column('proxy_id').execute();
    },
  };
}
