// The optional shared-state connection. Without REDIS_URL the service keeps counters and
// cache state in the process, which is right for a single process on SQLite.
import { Redis } from 'ioredis';

export function connectRedis(url: string): Redis {
  // Fail fast instead of queueing commands forever while Redis is down; callers fall back
  // (the rate limiter to its in-memory insurance limiter).
  return new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
}

export type { Redis };
