// Idempotent requests (decisions.md §19, docs/decisions/0024): one row per account and
// `Idempotency-Key`. While the first request runs, the row is its claim (`claim_token` set,
// no `status`) and lives 60 s past its last renewal; once it succeeds the row keeps its status
// and body for 24 h. "Live" is one rule for both states, `expires_at > now`, so the claim is a
// single insert-if-absent (taking over a dead row) and the sweep one indexed delete.
// Numbered 0026: 0025 is reserved for another branch; the runner applies migrations in name
// order and needs no unbroken sequence.
import type { Kysely, Migration } from 'kysely';
import { refType } from '../columns.js';
import type { DialectName } from '../database.js';

export function idempotencyKeys(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('idempotency_keys')
        // Per account: the owner's keys and signed-in session share their keys.
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        // SHA-256 hex of the header: a fixed width, whatever the client sent (1 to 255 characters).
        .addColumn('key_hash', 'text', (c) => c.notNull())
        // SHA-256 hex of method, path and the canonical JSON of the body.
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        // The claim of the request in flight; null once its answer is kept.
        .addColumn('claim_token', 'text')
        // The kept answer (null while in flight): status, media type, body sealed with the server key.
        .addColumn('status', 'integer')
        .addColumn('content_type', 'text')
        .addColumn('body_sealed', 'text')
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key_hash'])
        .execute();
      await db.schema.createIndex('idempotency_keys_expires_idx').on('idempotency_keys').column('expires_at').execute();
    },
  };
}
