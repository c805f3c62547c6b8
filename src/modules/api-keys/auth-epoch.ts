// Cache invalidation for key look-ups. Any change that must reach every process before its
// next request (a revoked key, a changed subscription) moves the epoch; each request reads
// it and ignores cache entries from an older epoch.
import type { Redis } from '../../db/redis.js';

export interface AuthEpoch {
  /** A plain string when it can be read without I/O. */
  current(): string | Promise<string>;
  bump(): Promise<void>;
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
  private checkedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly externalChanges: () => number,
    private readonly externalCheckMs = 200,
  ) {}

  current(): string {
    const now = performance.now();
    if (now - this.checkedAt >= this.externalCheckMs) {
      this.external = this.externalChanges();
      this.checkedAt = now;
    }
    return `${this.local}:${this.external}`;
  }
  async bump(): Promise<void> {
    this.local += 1;
  }
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
