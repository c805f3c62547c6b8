// Accounts, subscriptions, sessions and API keys.
import type { Kysely, Migration } from 'kysely';
import { SUBSCRIPTION_STATUSES } from '../../core/values.js';
import { oneOf, refType, withId } from '../columns.js';
import type { DialectName } from '../database.js';

export function accounts(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('users'), dialect)
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text')
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('disabled_at', 'bigint')
        .execute();

      await db.schema
        .createTable('subscriptions')
        .addColumn('user_id', ref, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('plan', 'text')
        .addColumn('trial_ends_at', 'bigint')
        .addColumn('current_period_end', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('subscriptions_status_check', oneOf('status', SUBSCRIPTION_STATUSES))
        .execute();

      await withId(db.schema.createTable('sessions'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

      await withId(db.schema.createTable('api_keys'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('api_keys_user_idx').on('api_keys').columns(['user_id', 'id']).execute();
    },
  };
}
