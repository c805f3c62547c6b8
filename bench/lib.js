// @ts-check
// Helpers every benchmark shares: one-off PostgreSQL statements (schemas), Redis clean-up,
// HTTP calls against the listening app, load runs with autocannon, and the statistics the
// tables print.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

/**
 * Runs one statement on its own connection (creating or dropping a benchmark schema).
 * @param {string} url
 * @param {string} query
 */
export async function withPg(url, query) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/**
 * Deletes every Redis key under a benchmark's prefix.
 * @param {import('ioredis').Redis} redis
 * @param {string} prefix
 */
export async function deleteRedisKeys(redis, prefix) {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
}

/**
 * A JSON call to the app over HTTP; any non-2xx answer stops the benchmark.
 * @param {string} base
 * @param {string} method
 * @param {string} path
 * @param {{ body?: unknown, headers?: Record<string, string> }} [options]
 * @returns {Promise<any>} the parsed JSON answer
 */
export async function request(base, method, path, { body, headers = {} } = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/**
 * The p-th percentile of an ascending array (nearest rank).
 * @param {number[]} sorted
 * @param {number} p
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** @param {number[]} xs the median of the values, in any order */
export const median = (xs) => percentile([...xs].sort((a, b) => a - b), 50);

/**
 * The mean of the values left when the lowest and highest tenth are set aside: steadier than
 * the mean under a few stalls, and, unlike the median, not stuck on whole numbers when the
 * values are whole milliseconds.
 * @param {number[]} xs
 */
export function trimmedMean(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  const cut = Math.floor(sorted.length / 10);
  const kept = sorted.slice(cut, sorted.length - cut);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

/**
 * How sure a ratio of two statistics (medians by default) is: its 95 % interval by the
 * bootstrap (each side's rounds drawn again with replacement, `resamples` times), so a reader
 * can tell a goal met from a ratio that only landed under it in this run.
 * @param {number[]} numerator
 * @param {number[]} denominator
 * @param {{ statistic?: (xs: number[]) => number, resamples?: number }} [options]
 * @returns {{ ratio: number, low: number, high: number }}
 */
export function ratioOfMedians(numerator, denominator, { statistic = median, resamples = 2000 } = {}) {
  /** @param {number[]} xs */
  const redraw = (xs) => statistic(Array.from(xs, () => xs[Math.floor(Math.random() * xs.length)]));
  const ratios = Array.from({ length: resamples }, () => redraw(numerator) / redraw(denominator)).sort((a, b) => a - b);
  return { ratio: statistic(numerator) / statistic(denominator), low: percentile(ratios, 2.5), high: percentile(ratios, 97.5) };
}

/**
 * @param {number} value
 * @param {number} [digits]
 */
export function round(value, digits = 2) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * The `--engine` option, checked: a benchmark refuses anything but the two engines before it
 * starts anything.
 * @param {string | undefined} engine
 */
export function checkEngine(engine) {
  if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`--engine must be sqlite or postgres, got "${engine}"`);
}

/**
 * Where one benchmark run keeps its data: a fresh SQLite file in a temporary folder, or a
 * fresh PostgreSQL schema plus a Redis key prefix (DATABASE_URL and REDIS_URL, or the local
 * defaults). Everything is removed by the run's clean-up.
 * @param {string} engine `sqlite` or `postgres`
 * @param {string} label
 */
export function benchTarget(engine, label) {
  const suffix = randomBytes(6).toString('hex');
  const postgres = engine === 'postgres';
  return {
    suffix,
    redisPrefix: `bench:${suffix}:`,
    pgSchema: postgres ? `bench_${suffix}` : undefined,
    databaseUrl: postgres ? process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test' : undefined,
    redisUrl: postgres ? process.env.REDIS_URL || 'redis://127.0.0.1:6379' : undefined,
    tempDir: postgres ? undefined : mkdtempSync(join(tmpdir(), `${label}-bench-`)),
  };
}

/**
 * The settings a benchmark app runs with; `extra` adds or overrides some.
 * @param {ReturnType<typeof benchTarget>} target
 * @param {Record<string, string>} [extra]
 * @returns {Record<string, string>}
 */
export function benchEnv(target, extra = {}) {
  return {
    SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
    // The limiter still counts every request, but never refuses one.
    RATE_LIMIT_PER_KEY: '1000000000',
    RATE_LIMIT_PER_ACCOUNT: '1000000000',
    REDIS_PREFIX: target.redisPrefix,
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
    ...(target.redisUrl ? { REDIS_URL: target.redisUrl } : {}),
    ...extra,
  };
}

/** Clean-up steps, run last-in first-out; a failing step is reported and the rest still run. */
export function cleanupStack() {
  /** @type {(() => unknown)[]} */
  const steps = [];
  return {
    /** @param {() => unknown} step */
    push: (step) => steps.push(step),
    /** Forgets the last step (its resource was released early). */
    pop: () => steps.pop(),
    run: async () => {
      while (steps.length > 0) {
        const step = steps.pop();
        try {
          await step?.();
        } catch (error) {
          console.error(`cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    },
  };
}

/**
 * One autocannon run; latencies are recorded unrounded (autocannon's histogram keeps whole ms).
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {number} seconds
 * @param {number} connections
 */
export function loadRun(url, headers, seconds, connections) {
  /** @type {number[]} */
  const latencies = [];
  const cpuBefore = process.cpuUsage();
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, headers, connections, duration: seconds }, (error, result) => {
      if (error) reject(error);
      else {
        const cpu = process.cpuUsage(cpuBefore);
        latencies.sort((a, b) => a - b);
        resolve({
          rps: result.requests.mean,
          total: result.requests.total,
          ok: result['2xx'],
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          statusCodes: result.statusCodeStats,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          // CPU of this whole process (server and load generator) per request: steadier than
          // req/s when other work shares the machine, but blind to PostgreSQL's and Redis' CPU.
          cpuUsPerRequest: (cpu.user + cpu.system) / Math.max(1, result.requests.total),
        });
      }
    });
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

/**
 * @param {string} label
 * @param {{ ok: number, non2xx: number, errors: number, timeouts: number, statusCodes: unknown }} result
 */
export function assertAllOk(label, result) {
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || result.ok === 0) {
    throw new Error(
      `${label}: not every response was 2xx (2xx=${result.ok}, non-2xx=${result.non2xx}, errors=${result.errors}, timeouts=${result.timeouts}, ` +
        `status codes ${JSON.stringify(result.statusCodes)}); a benchmark of refusals measures nothing.`,
    );
  }
}

/**
 * Prints a Markdown table after a blank line: the first row is the header; the columns in
 * `leftAligned` (text) are padded on the right, the others (numbers) on the left.
 * @param {string[][]} rows
 * @param {number[]} [leftAligned]
 */
export function printTable(rows, leftAligned = [0]) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  /** @param {string[]} row */
  const line = (row) => `| ${row.map((cell, i) => (leftAligned.includes(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`;
  console.log('');
  console.log(line(rows[0]));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows.slice(1)) console.log(line(row));
}

/**
 * Runs a benchmark's main (which runs its own clean-up); a failure prints its stack and
 * exits 1, so a broken benchmark never looks like a finished one.
 * @param {string} file the benchmark's file in bench/, for the message
 * @param {() => Promise<void>} main
 */
export function runMain(file, main) {
  main().catch((error) => {
    console.error(`bench/${file} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  });
}
