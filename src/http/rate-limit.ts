// Fixed one-minute windows counted by rate-limiter-flexible, in memory or in Redis. The
// window number comes from the injected clock and is part of the counter's key, so tests
// move to the next window by advancing the clock, and every process agrees on the window.
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from '../db/redis.js';
import { type Clock, MINUTE_MS } from '../lib/clock.js';

export interface WindowResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix milliseconds when the current window ends. */
  resetAt: number;
}

export class FixedWindowLimiter {
  private readonly store: RateLimiterAbstract;

  constructor(
    readonly name: string,
    readonly limit: number,
    private readonly clock: Clock,
    redis: Redis | undefined,
    redisPrefix: string,
  ) {
    // The store keeps each counter for two windows so that a counter started late in a
    // window always outlives it; the window number in the key does the real separating.
    const options = { points: limit, duration: (2 * MINUTE_MS) / 1000, keyPrefix: `${redisPrefix}rl:${name}` };
    this.store = redis
      ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
      : new RateLimiterMemory(options);
  }

  /** Counts one hit for `id` and reports whether it stays within the limit. */
  async hit(id: string | number): Promise<WindowResult> {
    const window = Math.floor(this.clock.now() / MINUTE_MS);
    let result: RateLimiterRes;
    try {
      result = await this.store.consume(`${id}:${window}`);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      result = rejection;
    }
    return {
      allowed: result.consumedPoints <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - result.consumedPoints),
      resetAt: (window + 1) * MINUTE_MS,
    };
  }
}

export function rateLimitHeaders(result: WindowResult, scope: 'key' | 'account' | 'ip', now: number): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(result.limit),
    'x-ratelimit-remaining': String(result.remaining),
    'x-ratelimit-reset': String(Math.ceil(result.resetAt / 1000)),
    'x-ratelimit-scope': scope,
  };
  if (!result.allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((result.resetAt - now) / 1000)));
  return headers;
}
