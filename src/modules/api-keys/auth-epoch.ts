// Cache invalidation for key look-ups. Any change that must reach every process before its
// next request (a revoked key, a changed subscription) moves the epoch; each request reads
// it and ignores cache entries from an older epoch.
import type { Redis } from '../../db/redis.js';

export interface AuthEpoch {
  /** A plain string when it can be read without I/O. */
  current(): string | Promise<string>;
  bump(): Promise<void>;
  /**
   * The Redis key holding the epoch when it is shared through Redis, so that a caller already
   * making a round trip there (the key gate's counting script) can read it on the way; the
   * value read goes through `epochFromStored`.
   */
  readonly redisKey?: string;
}

/** The epoch as stored in Redis: a key never bumped reads as "0". */
export function epochFromStored(stored: string | null): string {
  return stored ?? '0';
}

/**
 * The embedded default: changes made by this process bump a counter in memory (seen by the
 * very next request), and changes committed to the SQLite file by another program (the
 * sqlite3 shell, a second process) move SQLite's data_version. Reading that costs about as
 * much as the rest of the key gate, so it is read at most every `externalCheckMs`: another
 * program's change reaches the cache within that time.
 */
export class LocalAuthEpoch implements AuthEpoch {
  private local = 0;
  private external = 0;
  private value = '0:0';
  private checkedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly externalChanges: () => number,
    private readonly externalCheckMs = 200,
  ) {}

  current(): string {
    const now = performance.now();
    if (now - this.checkedAt >= this.externalCheckMs) {
      this.checkedAt = now;
      const external = this.externalChanges();
      if (external !== this.external) {
        this.external = external;
        this.value = `${this.local}:${this.external}`;
      }
    }
    return this.value;
  }
  async bump(): Promise<void> {
    this.local += 1;
    this.value = `${this.local}:${this.external}`;
  }
}

export class RedisAuthEpoch implements AuthEpoch {
  readonly redisKey: string;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.redisKey = `${prefix}auth:epoch`;
  }
  async current(): Promise<string> {
    return epochFromStored(await this.redis.get(this.redisKey));
  }
  async bump(): Promise<void> {
    await this.redis.incr(this.redisKey);
  }
}
