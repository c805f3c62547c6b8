// Resolves a presented key (by its SHA-256) to the key, its owner and the owner's
// subscription in one query. With Redis, results are cached in the process and checked
// against the shared auth epoch on every request, so a revocation in any process is seen
// by all of them before their next request. Without Redis every request asks the
// database: on SQLite that is a few microseconds, and it is always correct.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { constantTimeEqual } from '../../lib/crypto.js';
import type { SubscriptionRow } from '../billing/subscription.js';
import type { AuthEpoch } from './auth-epoch.js';
import type { Scope } from './scopes.js';

export interface ResolvedKey {
  id: number;
  userId: number;
  name: string;
  prefix: string;
  scopes: Scope[];
  expiresAt: number | null;
  revokedAt: number | null;
  userEmail: string;
  userDisabled: boolean;
  subscription: SubscriptionRow | null;
}

interface CacheEntry {
  value: ResolvedKey;
  epoch: string;
  loadedAt: number;
}

const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 10_000;

export class KeyResolver {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly epoch: AuthEpoch | null,
  ) {}

  async resolve(keyHash: string): Promise<ResolvedKey | null> {
    if (!this.epoch) return this.load(keyHash);
    // Read the epoch before loading, and tag the entry with it: a load that raced with a
    // revocation is then tagged with the older epoch and never served again.
    const epoch = await this.epoch.current();
    const hit = this.cache.get(keyHash);
    if (hit && hit.epoch === epoch && Date.now() - hit.loadedAt < CACHE_TTL_MS) return hit.value;
    const value = await this.load(keyHash);
    if (value) {
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
      this.cache.set(keyHash, { value, epoch, loadedAt: Date.now() });
    }
    return value;
  }

  /** Called after a revocation or a subscription change; reaches every process. */
  async invalidate(): Promise<void> {
    this.cache.clear();
    await this.epoch?.bump();
  }

  private async load(keyHash: string): Promise<ResolvedKey | null> {
    const row = await this.db
      .selectFrom('api_keys as k')
      .leftJoin('users as u', 'u.id', 'k.user_id')
      .leftJoin('subscriptions as s', 's.user_id', 'k.user_id')
      .select([
        'k.id',
        'k.user_id',
        'k.name',
        'k.prefix',
        'k.key_hash',
        'k.scopes',
        'k.expires_at',
        'k.revoked_at',
        'u.email',
        'u.disabled_at',
        's.status',
        's.plan',
        's.trial_ends_at',
        's.current_period_end',
      ])
      .where('k.key_hash', '=', keyHash)
      .executeTakeFirst();
    // The index found the row; the constant-time comparison keeps the final check free of
    // early exits that depend on the secret.
    if (!row || !constantTimeEqual(row.key_hash, keyHash)) return null;
    return {
      id: row.id,
      userId: row.user_id,
      name: row.name,
      prefix: row.prefix,
      scopes: JSON.parse(row.scopes) as Scope[],
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
      userEmail: row.email ?? '',
      userDisabled: row.email === null || row.disabled_at !== null,
      subscription: row.status
        ? { status: row.status, plan: row.plan, trial_ends_at: row.trial_ends_at, current_period_end: row.current_period_end }
        : null,
    };
  }
}
