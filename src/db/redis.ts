// The optional shared-state connection. Without REDIS_URL the service keeps counters and
// cache state in the process, which is right for a single process on SQLite.
import { once } from 'node:events';
import type * as IoRedis from 'ioredis';
import type { Redis } from 'ioredis';
import { packageOnDemand } from '../lib/package-on-demand.js';

const ioredis = packageOnDemand<typeof IoRedis>('ioredis');

export function connectRedis(url: string): Redis {
  // While disconnected, commands fail at once instead of queueing: callers have fallbacks
  // (the rate limiter its in-memory insurance limiter, key look-ups the database), and a
  // request must not wait for reconnection attempts.
  const redis = new (ioredis().Redis)(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  // Until the app attaches its logger, errors are swallowed rather than crash the process
  // ("Unhandled error event"); connection state is visible on /readyz.
  redis.on('error', () => undefined);
  return redis;
}

/** Waits until Redis is ready, for at most `ms`; resolves false if it is not. */
export async function redisReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref());
  return Promise.race([once(redis, 'ready').then(() => true), timeout]);
}

export type { Redis };
