// Webhook endpoints and their deliveries. The deliveries table is the queue: a worker claims
// due rows (`status` pending, `next_attempt_at` passed) with a lease (`locked_until`,
// `locked_by`), so a crashed worker's rows return to the queue when the lease runs out.
import { type Kysely, type Migration, sql } from 'kysely';
import { DELIVERY_STATUSES, ENDPOINT_DISABLED_REASONS, FLAG_VALUES, WEBHOOK_SCOPE_MODES } from '../../core/values.js';
import { oneOf, refType, withId } from '../columns.js';
import type { DialectName } from '../database.js';

export function webhooks(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('webhook_endpoints'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('event_types', 'text', (c) => c.notNull())
        // AES-256-GCM under SECRET_KEY: signing needs the secret back, so it cannot be hashed.
        .addColumn('secret_encrypted', 'text', (c) => c.notNull())
        .addColumn('secret_prefix', 'text', (c) => c.notNull())
        .addColumn('scope_mode', 'text', (c) => c.notNull())
        .addColumn('scope_group_ids', 'text', (c) => c.notNull())
        .addColumn('scope_device_ids', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
        // When the current failure streak began: the streak rule also needs its age.
        .addColumn('first_failure_at', 'bigint')
        .addColumn('disabled_reason', 'text')
        .addColumn('last_success_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('webhook_endpoints_scope_mode_check', oneOf('scope_mode', WEBHOOK_SCOPE_MODES))
        .addCheckConstraint('webhook_endpoints_enabled_check', oneOf('enabled', FLAG_VALUES))
        .addCheckConstraint('webhook_endpoints_disabled_reason_check', oneOf('disabled_reason', ENDPOINT_DISABLED_REASONS))
        .execute();
      await db.schema.createIndex('webhook_endpoints_user_idx').on('webhook_endpoints').columns(['user_id', 'id']).execute();

      // No foreign key to the endpoint: a deleted endpoint's delivery history stays readable.
      await withId(db.schema.createTable('webhook_deliveries'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('endpoint_id', ref, (c) => c.notNull())
        .addColumn('event_pk', ref, (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        // Index into the retry schedule of the next attempt; redeliver resets it, `attempts` keeps counting.
        .addColumn('schedule_step', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint')
        .addColumn('locked_until', 'bigint')
        .addColumn('locked_by', 'text')
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('last_response_body', 'text')
        .addColumn('delivered_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('webhook_deliveries_status_check', oneOf('status', DELIVERY_STATUSES))
        .execute();
      // One delivery per event and endpoint, whatever retries the fan-out sees.
      await db.schema.createIndex('webhook_deliveries_event_endpoint_uq').on('webhook_deliveries').columns(['event_pk', 'endpoint_id']).unique().execute();
      await db.schema.createIndex('webhook_deliveries_user_idx').on('webhook_deliveries').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['user_id', 'endpoint_id', 'id']).execute();
      await db.schema.createIndex('webhook_deliveries_status_idx').on('webhook_deliveries').columns(['user_id', 'status', 'id']).execute();
      // The queue: only pending rows are indexed, so the claim scans due work and nothing else.
      await db.schema
        .createIndex('webhook_deliveries_due_idx')
        .on('webhook_deliveries')
        .columns(['next_attempt_at', 'id'])
        .where(sql.ref('status'), '=', 'pending')
        .execute();
    },
  };
}
