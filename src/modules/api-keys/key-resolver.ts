// Resolves a presented key (by its SHA-256) to the key, its owner and the owner's
// subscription in one query, and caches the result in the process. Every request checks
// the cache against an epoch that moves whenever a key is revoked or a subscription changes
// (in Redis, shared by every process; on the embedded default, in memory plus SQLite's
// data_version), so a revocation anywhere is seen before the next request. With Redis, the
// key gate reads the epoch in the same round trip that counts the request's rate-limit
// windows (`peek`, then `confirm`). Without either (PostgreSQL without Redis) every request
// asks the database. When Redis cannot be read,
// the cache is dropped and the database answers, so an outage costs speed, never
// correctness. Key expiry and trial ends are checked against the clock on every request,
// cached or not.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toIso } from '../../lib/clock.js';
import { constantTimeEqual } from '../../lib/crypto.js';
import type { SubscriptionRow } from '../billing/index.js';
import type { AuthEpoch } from './auth-epoch.js';
import type { Scope } from './scopes.js';

export interface ResolvedKey {
  id: number;
  userId: number;
  name: string;
  prefix: string;
  scopes: Scope[];
  expiresAt: number | null;
  /** Formatted once when loaded, not on every request that shows it. */
  expiresAtIso: string | null;
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
const BUMP_RETRY_MS = 1000;

export class KeyResolver {
  private readonly cache = new Map<string, CacheEntry>();
  private bumpRetry: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly epoch: AuthEpoch | null,
    private readonly onSharedStateError: (error: unknown, what: string) => void = () => undefined,
  ) {}

  /**
   * The key for a presented key's SHA-256, or null. A plain value when it comes from the cache
   * and the epoch could be read without I/O (the embedded default).
   */
  resolve(keyHash: string): ResolvedKey | null | Promise<ResolvedKey | null> {
    if (!this.epoch) return this.load(keyHash);
    let epoch: string | Promise<string>;
    try {
      epoch = this.epoch.current();
    } catch (error) {
      return this.loadUnshared(keyHash, error);
    }
    if (typeof epoch === 'string') return this.confirm(keyHash, epoch);
    return epoch.then(
      (current) => this.confirm(keyHash, current),
      (error: unknown) => this.loadUnshared(keyHash, error),
    );
  }

  /**
   * The Redis key of the shared epoch, for a caller that reads it in a round trip it makes
   * anyway and then calls `confirm`; null when the epoch is not kept in Redis.
   */
  get sharedEpochKey(): string | null {
    return this.epoch?.redisKey ?? null;
  }

  /**
   * The cached key within its time to live, whatever epoch it was loaded in: only a hint
   * until `confirm` has checked it against an epoch read afterwards.
   */
  peek(keyHash: string): ResolvedKey | undefined {
    const hit = this.cache.get(keyHash);
    return hit && Date.now() - hit.loadedAt < CACHE_TTL_MS ? hit.value : undefined;
  }

  /**
   * The key as of `epoch`, read just now: the cached entry if it was loaded in that epoch,
   * otherwise a fresh load from the database, cached under that epoch. The epoch is read
   * before loading, so a load that raced with a revocation is tagged with the older epoch
   * and never served again.
   */
  confirm(keyHash: string, epoch: string): ResolvedKey | null | Promise<ResolvedKey | null> {
    const hit = this.cache.get(keyHash);
    if (hit && hit.epoch === epoch && Date.now() - hit.loadedAt < CACHE_TTL_MS) return hit.value;
    return this.load(keyHash).then((value) => {
      if (value) {
        if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
        this.cache.set(keyHash, { value, epoch, loadedAt: Date.now() });
      }
      return value;
    });
  }

  /** The shared epoch cannot be read: nothing cached can be trusted, so the database answers. */
  loadUnshared(keyHash: string, error: unknown): Promise<ResolvedKey | null> {
    this.cache.clear();
    this.onSharedStateError(error, 'reading the key-cache epoch from Redis; using the database');
    return this.load(keyHash);
  }

  /**
   * Called after a revocation or a subscription change; reaches every process. The change is
   * already committed, so a Redis failure must not fail the request: processes that cannot
   * read Redis use the database meanwhile, and the bump is retried until Redis takes it, so
   * caches kept through the outage are dropped as soon as it ends.
   */
  async invalidate(): Promise<void> {
    this.cache.clear();
    if (!this.epoch) return;
    try {
      await this.epoch.bump();
    } catch (error) {
      this.onSharedStateError(error, 'announcing a key change through Redis; retrying');
      this.retryBump();
    }
  }

  private retryBump(): void {
    if (this.bumpRetry) return;
    this.bumpRetry = setTimeout(() => {
      this.bumpRetry = undefined;
      this.epoch?.bump().catch(() => this.retryBump());
    }, BUMP_RETRY_MS);
    this.bumpRetry.unref();
  }

  /** Stops a pending retry (app shutdown). */
  stop(): void {
    clearTimeout(this.bumpRetry);
    this.bumpRetry = undefined;
  }

  /**
   * The key, its owner and the owner's subscription in one statement: one of the few reads of
   * other modules' tables (users, subscriptions) kept as a join, since a miss here is every
   * request on PostgreSQL without Redis (decision 0028, bench/joined-reads.js).
   */
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
      expiresAtIso: toIso(row.expires_at),
      revokedAt: row.revoked_at,
      userEmail: row.email ?? '',
      userDisabled: row.email === null || row.disabled_at !== null,
      subscription: row.status
        ? { status: row.status, plan: row.plan, trial_ends_at: row.trial_ends_at, current_period_end: row.current_period_end }
        : null,
    };
  }
}
