// The key gate, in the contract's order: 401 (who is this?) → 429 per key, then per
// account (a request counts even when it later gets 402 or 403; one over the key's limit
// does not count against the account) → 402 → 403. Only a request that passes all of them
// marks the key as used. On Redis, a cached key costs one round trip (resolveAndCount).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { isSubscriptionActive } from '../billing/index.js';
import { epochFromStored } from './auth-epoch.js';
import { KEY_PATTERN, keyState } from './key-format.js';
import type { KeyResolver, ResolvedKey } from './key-resolver.js';
import type { LastUsedRecorder } from './last-used.js';
import { keyCovers, type Scope } from './scopes.js';
import { InsufficientScopeError, RateLimitedError, SubscriptionRequiredError, UnauthorizedError } from '../../core/errors.js';
import { type ChainCount, FixedWindowLimiter, rateLimitHeaders, type WindowHit } from '../../lib/rate-limit.js';

/** Header names people type when they mean X-API-KEY. */
const LOOKALIKE_HEADERS = /^(x-)?api[-_]?key$|^x-api_key$|^apikey$/i;

function presentedKey(request: FastifyRequest): string {
  const value = request.headers['x-api-key'];
  if (value === undefined) {
    const mistyped = Object.keys(request.headers).some((name) => name !== 'x-api-key' && LOOKALIKE_HEADERS.test(name));
    if (mistyped || request.headers.authorization !== undefined) {
      throw new UnauthorizedError('invalid_api_key', 'Send the API key in the X-API-KEY header.');
    }
    throw new UnauthorizedError('missing_api_key', 'This route needs an API key in the X-API-KEY header.');
  }
  if (typeof value !== 'string' || !KEY_PATTERN.test(value)) {
    throw new UnauthorizedError('invalid_api_key', 'The X-API-KEY value is not a whole API key: it must be the entire key, including its svc_ prefix.');
  }
  return value;
}

const UNUSABLE_KEY = 'This API key is unknown, revoked or expired.';

/** Why a key cannot be used at all (401), or null. */
function refusal(key: ResolvedKey, now: number): UnauthorizedError | null {
  if (keyState({ revoked_at: key.revokedAt, expires_at: key.expiresAt }, now) !== 'Active') return new UnauthorizedError('invalid_api_key', UNUSABLE_KEY);
  if (key.userDisabled) return new UnauthorizedError('api_key_not_user_scoped', 'The account that owns this key no longer exists or is disabled.');
  return null;
}

/** Whether a resolved key may be used now (not revoked or expired, its owner still there). */
export function isUsableKey(key: ResolvedKey, now: number): boolean {
  return refusal(key, now) === null;
}

function usable(key: ResolvedKey | null, now: number): ResolvedKey {
  if (!key) throw new UnauthorizedError('invalid_api_key', UNUSABLE_KEY);
  const refused = refusal(key, now);
  if (refused) throw refused;
  return key;
}

export class ApiKeyGate {
  constructor(
    private readonly resolver: KeyResolver,
    private readonly perKey: FixedWindowLimiter,
    private readonly perAccount: FixedWindowLimiter,
    private readonly lastUsed: LastUsedRecorder,
    private readonly clock: Clock,
  ) {}

  async check(request: FastifyRequest, reply: FastifyReply, required: Scope | 'full' | null): Promise<void> {
    return this.admit(sha256Hex(presentedKey(request)), request, reply, required);
  }

  /**
   * The gate for a key already identified by its SHA-256: the REST key guard above, and the
   * tool server, which also takes the key as a bearer or a token minted from it. A token
   * passes `granted`, its scopes (within the key's), which then stand in for the key's; the
   * key itself is still resolved here, so a token dies with its key in every process.
   */
  async admit(keyHash: string, request: FastifyRequest, reply: FastifyReply, required: Scope | 'full' | null, granted?: readonly Scope[]): Promise<void> {
    const now = this.clock.now();
    const { key, counted } = await this.resolveAndCount(keyHash, now);

    const [byKey, byAccount] = counted.results;
    if (!byKey.allowed) {
      throw new RateLimitedError(`This key made more than ${byKey.limit} requests this minute. Wait for the time in Retry-After.`, rateLimitHeaders(byKey, 'key', now));
    }
    if (!byAccount.allowed) {
      throw new RateLimitedError(
        `This account's keys made more than ${byAccount.limit} requests this minute. More keys do not raise the limit; wait for the time in Retry-After.`,
        rateLimitHeaders(byAccount, 'account', now),
      );
    }
    // Report whichever window is closer to its limit, so a client pacing itself on these
    // headers never runs into the other one.
    const tighter = byAccount.remaining < byKey.remaining ? ([byAccount, 'account'] as const) : ([byKey, 'key'] as const);
    reply.headers(rateLimitHeaders(tighter[0], tighter[1], now));

    if (!isSubscriptionActive(key.subscription, now)) throw new SubscriptionRequiredError();
    const scopes = granted ?? key.scopes;
    if (!keyCovers(scopes, required)) throw new InsufficientScopeError(required === 'full' || required === null ? [] : [required]);

    request.caller = { userId: key.userId, keyId: key.id, sessionId: null, scopes: [...scopes] };
    request.apiKey = key;
    this.lastUsed.mark(key.id, now);
  }

  /**
   * Counts one more request of an admitted caller against the key's window, then the
   * account's (a tool-server batch counts each of its tool calls); 429 when over either.
   */
  async countAgain(request: FastifyRequest): Promise<void> {
    const key = request.apiKey;
    if (!key) throw new Error('countAgain before the gate admitted the request');
    const now = this.clock.now();
    const { results } = await FixedWindowLimiter.countChain(this.windowsOf(key));
    const [byKey, byAccount] = results;
    if (!byKey.allowed) throw new RateLimitedError(`This key made more than ${byKey.limit} requests this minute. Wait for the time in Retry-After.`, rateLimitHeaders(byKey, 'key', now));
    if (byAccount && !byAccount.allowed) {
      throw new RateLimitedError(`This account's keys made more than ${byAccount.limit} requests this minute. Wait for the time in Retry-After.`, rateLimitHeaders(byAccount, 'account', now));
    }
  }

  /**
   * The key (401 if it cannot be used), and the request counted against the key's window,
   * then, if that allowed it, the account's.
   *
   * On Redis a key already cached as usable costs one round trip: one script counts both
   * windows and returns the revocation epoch, which decides whether the cached key still
   * holds. If the epoch moved, the key is loaded again and the answer follows the fresh row.
   * The request was then counted before its 401: that is harmless. The key's id and owner
   * never change, so a key that is still valid was going to be counted anyway; a key revoked
   * meanwhile is cached as revoked from then on and refused before any counting, so each
   * process counts at most one hit of it after the revocation.
   *
   * If Redis does not answer the script, the hit is counted in this process and the database
   * decides about the key, with the same harmless early count.
   *
   * Everywhere else (counting in memory, a key not cached yet, a cached key that is already
   * refused) the key is checked first and counted after, in the contract's order.
   */
  private async resolveAndCount(keyHash: string, now: number): Promise<{ key: ResolvedKey; counted: ChainCount }> {
    const epochKey = this.resolver.sharedEpochKey;
    const cached = epochKey === null ? undefined : this.resolver.peek(keyHash);
    if (epochKey !== null && cached && !refusal(cached, now)) {
      const counted = await FixedWindowLimiter.countChain(this.windowsOf(cached), epochKey);
      const key =
        counted.read === undefined
          ? // Redis did not answer: the windows were counted in this process, the database decides.
            await this.resolver.loadUnshared(keyHash, counted.redisError)
          : await this.resolver.confirm(keyHash, epochFromStored(counted.read));
      return { key: usable(key, now), counted };
    }
    const key = usable(await this.resolver.resolve(keyHash), now);
    return { key, counted: await FixedWindowLimiter.countChain(this.windowsOf(key)) };
  }

  private windowsOf(key: ResolvedKey): WindowHit[] {
    return [
      { limiter: this.perKey, id: key.id },
      { limiter: this.perAccount, id: key.userId },
    ];
  }
}
