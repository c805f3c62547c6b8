// Tool-server tokens (decisions.md §7): a key exchanged at /api/mcp/oauth/token for a one-hour
// bearer token. Only the token's SHA-256 is stored, with the key it was minted from, so the
// token is refused through that key (revoked, expired, owner gone) exactly as the key is,
// and goes with it when the key's row goes.
import type { Kysely, Migration } from 'kysely';
import { refType } from '../columns.js';
import type { DialectName } from '../database.js';

export function mcpTokens(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('mcp_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('key_id', ref, (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
        // The granted scopes as a JSON array, within the key's (never empty: a full-access
        // key asked for no scope is granted all five).
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('mcp_tokens_key_idx').on('mcp_tokens').column('key_id').execute();
      // Expired tokens are swept by expiry time.
      await db.schema.createIndex('mcp_tokens_expires_idx').on('mcp_tokens').column('expires_at').execute();
    },
  };
}
