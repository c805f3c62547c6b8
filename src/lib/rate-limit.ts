// Fixed one-minute windows, counted in memory or in Redis. The window number comes from the
// injected clock and is part of the counter's key, so tests move to the next window by
// advancing the clock, and every process agrees on the window.
//
// Windows are counted as a chain: the key gate counts a request against the key's window and,
// only when that one allowed it, against the account's. On Redis the whole chain, plus one key
// read on the way (the gate's revocation epoch), is one Lua script, so one round trip
// (docs/decisions/0004-gate-round-trip.md). When Redis does not answer, the process counts in
// memory instead: an outage loosens the limits to per-process ones rather than refusing traffic.
import type { Redis } from '../db/redis.js';
import { type Clock, MINUTE_MS } from '../lib/clock.js';

export interface WindowResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix milliseconds when the current window ends. */
  resetAt: number;
}

/** One hit to count: against `id`'s counter in `limiter`'s window. */
export interface WindowHit {
  limiter: FixedWindowLimiter;
  id: string | number;
}

export interface ChainCount {
  /** One result per window counted, in chain order; counting stops after the first refusal. */
  results: WindowResult[];
  /** The key asked to be read on the way, as Redis held it; absent when Redis did not answer. */
  read?: string | null;
  /** Why Redis did not answer, when the counts were made in this process instead. */
  redisError?: unknown;
}

// A counter lives for two windows, so one started late in its window always outlives it; the
// window number in its name does the real separating.
const COUNTER_TTL_MS = 2 * MINUTE_MS;

const COMMAND = 'countFixedWindows';
// KEYS: ARGV[2] keys to read (0 or 1), then each window's counter in chain order.
// ARGV: [1] counter TTL (ms), [2] number of keys to read, [3..] each window's limit.
// Returns the values read (false when missing) followed by each counted window's count.
// Scripts run atomically, so concurrent requests get consecutive counts on every process.
const COUNT_WINDOWS_LUA = `
local reads = tonumber(ARGV[2])
local out = {}
for i = 1, reads do out[i] = redis.call('GET', KEYS[i]) end
for i = reads + 1, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
  out[i] = count
  if count > tonumber(ARGV[i - reads + 2]) then break end
end
return out
`;

type CountWindowsCommand = (numKeys: number, ...keysAndArgs: (string | number)[]) => Promise<unknown>;

/** The script as a command on this client: ioredis sends EVALSHA, and EVAL once per connection. */
function countWindowsCommand(redis: Redis): CountWindowsCommand {
  if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { lua: COUNT_WINDOWS_LUA });
  const command = (redis as unknown as Record<typeof COMMAND, CountWindowsCommand>)[COMMAND];
  return command.bind(redis);
}

/** This process's counters for the current window; a new window starts them all afresh. */
class MemoryWindow {
  private window = Number.NaN;
  private counts = new Map<string | number, number>();

  hit(id: string | number, window: number): number {
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const count = (this.counts.get(id) ?? 0) + 1;
    this.counts.set(id, count);
    return count;
  }
}

export class FixedWindowLimiter {
  private readonly count: CountWindowsCommand | undefined;
  private readonly memory = new MemoryWindow();
  private readonly counterPrefix: string;

  constructor(
    readonly name: string,
    readonly limit: number,
    private readonly clock: Clock,
    redis: Redis | undefined,
    redisPrefix: string,
  ) {
    this.counterPrefix = `${redisPrefix}rl:${name}:`;
    this.count = redis ? countWindowsCommand(redis) : undefined;
  }

  /** Counts one hit for `id` and reports whether it stays within the limit. */
  async hit(id: string | number): Promise<WindowResult> {
    return (await FixedWindowLimiter.countChain([{ limiter: this, id }])).results[0];
  }

  /**
   * Counts one hit against each window of the chain in turn, stopping after the first that
   * refuses it, so a later window only counts hits the earlier ones allowed. Every limiter of
   * a chain uses the first one's store and clock. In memory the answer is immediate; on Redis
   * it takes one round trip, which also reads `alsoRead` when given.
   */
  static countChain(hits: readonly WindowHit[], alsoRead?: string): ChainCount | Promise<ChainCount> {
    const { clock, count } = hits[0].limiter;
    const window = Math.floor(clock.now() / MINUTE_MS);
    if (!count) return { results: FixedWindowLimiter.countInMemory(hits, window) };
    const reads = alsoRead === undefined ? [] : [alsoRead];
    const counters = hits.map(({ limiter, id }) => `${limiter.counterPrefix}${id}:${window}`);
    const limits = hits.map(({ limiter }) => limiter.limit);
    return count(reads.length + counters.length, ...reads, ...counters, COUNTER_TTL_MS, reads.length, ...limits)
      .then((reply): ChainCount => {
        if (!Array.isArray(reply) || reply.length <= reads.length) throw new Error('unexpected reply from the window-counting script');
        const results = reply.slice(reads.length).map((value, i) => hits[i].limiter.result(Number(value), window));
        return reads.length ? { results, read: typeof reply[0] === 'string' ? reply[0] : null } : { results };
      })
      .catch((error: unknown) => ({ results: FixedWindowLimiter.countInMemory(hits, window), redisError: error })); // count in this process meanwhile
  }

  private static countInMemory(hits: readonly WindowHit[], window: number): WindowResult[] {
    const results: WindowResult[] = [];
    for (const { limiter, id } of hits) {
      const result = limiter.result(limiter.memory.hit(id, window), window);
      results.push(result);
      if (!result.allowed) break;
    }
    return results;
  }

  private result(count: number, window: number): WindowResult {
    return { allowed: count <= this.limit, limit: this.limit, remaining: Math.max(0, this.limit - count), resetAt: (window + 1) * MINUTE_MS };
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
