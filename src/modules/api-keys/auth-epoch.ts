// Cache invalidation for key look-ups shared by every process. Any change that must reach
// every process before its next request (a revoked key, a changed subscription) bumps a
// counter in Redis; each request reads it and ignores cache entries from an older epoch.
import type { Redis } from '../../db/redis.js';

export interface AuthEpoch {
  current(): Promise<string>;
  bump(): Promise<void>;
}

export class RedisAuthEpoch implements AuthEpoch {
  private readonly key: string;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.key = `${prefix}auth:epoch`;
  }
  async current(): Promise<string> {
    return (await this.redis.get(this.key)) ?? '0';
  }
  async bump(): Promise<void> {
    await this.redis.incr(this.key);
  }
}
