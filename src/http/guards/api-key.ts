// The key gate, in the contract's order: 401 (who is this?) → 429 per key, then per
// account (a request counts even when it later gets 402 or 403) → 402 → 403. Only a
// request that passes all of them marks the key as used.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { isSubscriptionActive } from '../../modules/billing/subscription.js';
import { KEY_PATTERN, keyState } from '../../modules/api-keys/key-format.js';
import type { KeyResolver } from '../../modules/api-keys/key-resolver.js';
import type { LastUsedRecorder } from '../../modules/api-keys/last-used.js';
import { keyCovers, type Scope } from '../../modules/api-keys/scopes.js';
import { InsufficientScopeError, RateLimitedError, SubscriptionRequiredError, UnauthorizedError } from '../errors.js';
import { type FixedWindowLimiter, rateLimitHeaders } from '../rate-limit.js';

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

export class ApiKeyGate {
  constructor(
    private readonly resolver: KeyResolver,
    private readonly perKey: FixedWindowLimiter,
    private readonly perAccount: FixedWindowLimiter,
    private readonly lastUsed: LastUsedRecorder,
    private readonly clock: Clock,
  ) {}

  async check(request: FastifyRequest, reply: FastifyReply, required: Scope | 'full' | null): Promise<void> {
    const key = await this.resolver.resolve(sha256Hex(presentedKey(request)));
    const now = this.clock.now();
    if (!key || keyState({ revoked_at: key.revokedAt, expires_at: key.expiresAt }, now) !== 'Active') {
      throw new UnauthorizedError('invalid_api_key', 'This API key is unknown, revoked or expired.');
    }
    if (key.userDisabled) {
      throw new UnauthorizedError('api_key_not_user_scoped', 'The account that owns this key no longer exists or is disabled.');
    }

    const byKey = await this.perKey.hit(key.id);
    if (!byKey.allowed) {
      throw new RateLimitedError(`This key made more than ${byKey.limit} requests this minute. Wait for the time in Retry-After.`, rateLimitHeaders(byKey, 'key', now));
    }
    const byAccount = await this.perAccount.hit(key.userId);
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
    if (!keyCovers(key.scopes, required)) throw new InsufficientScopeError(required === 'full' || required === null ? [] : [required]);

    request.caller = { userId: key.userId, keyId: key.id, sessionId: null, scopes: key.scopes };
    request.apiKey = key;
    this.lastUsed.mark(key.id, now);
  }
}
