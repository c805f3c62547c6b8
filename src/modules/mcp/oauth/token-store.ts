// Tool-server tokens (decisions.md §7): opaque, `mcpt_` + 64 lowercase hex, stored only as
// their SHA-256 with the key they were minted from. A token's grant (its key, scopes and
// expiry) never changes once minted, so this process may cache it for the token's life;
// whether the key still holds is not cached here but asked of the key gate on every
// request, through the key cache and its revocation epoch, so a revoked key stops its
// tokens in every process at the same moment as the key itself.
import type { Kysely } from 'kysely';
import type { Scope } from '../../../core/context.js';
import type { Database } from '../../../db/schema.js';
import { constantTimeEqual, randomHex, sha256Hex } from '../../../lib/crypto.js';
import { keyHashOf } from '../../api-keys/index.js';

export const TOKEN_PATTERN = /^mcpt_[0-9a-f]{64}$/;
export const TOKEN_TTL_MS = 60 * 60 * 1000;
const CACHE_MAX_ENTRIES = 10_000;

export interface TokenGrant {
  /** SHA-256 of the key the token was minted from: the key gate resolves it. */
  keyHash: string;
  scopes: Scope[];
  expiresAt: number;
}

export class McpTokenStore {
  private readonly cache = new Map<string, TokenGrant>();

  constructor(private readonly db: Kysely<Database>) {}

  async mint(keyId: number, scopes: Scope[], now: number): Promise<{ token: string; expiresAt: number }> {
    const token = `mcpt_${randomHex(32)}`;
    const expiresAt = now + TOKEN_TTL_MS;
    // Expired tokens are worthless; sweeping them here keeps the table at about an hour's worth.
    await this.db.deleteFrom('mcp_tokens').where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('mcp_tokens')
      .values({ token_hash: sha256Hex(token), key_id: keyId, scopes: JSON.stringify(scopes), expires_at: expiresAt, created_at: now })
      .execute();
    return { token, expiresAt };
  }

  /** The grant of a live token, or null (unknown or expired). The key is checked by the caller. */
  async resolve(tokenHash: string, now: number): Promise<TokenGrant | null> {
    const grant = this.cache.get(tokenHash) ?? (await this.load(tokenHash));
    if (!grant || grant.expiresAt <= now) return null;
    return grant;
  }

  /** Once per token and process (the grant is then cached): the token's row, then its key's hash from the api-keys module. */
  private async load(tokenHash: string): Promise<TokenGrant | null> {
    const row = await this.db.selectFrom('mcp_tokens').select(['token_hash', 'key_id', 'scopes', 'expires_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
    if (!row || !constantTimeEqual(row.token_hash, tokenHash)) return null;
    const keyHash = await keyHashOf(this.db, row.key_id);
    if (keyHash === undefined) return null;
    const grant: TokenGrant = { keyHash, scopes: JSON.parse(row.scopes) as Scope[], expiresAt: Number(row.expires_at) };
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
    this.cache.set(tokenHash, grant);
    return grant;
  }
}
