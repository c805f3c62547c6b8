// Builds the real app on a fresh database for one test file: an in-memory SQLite, or a new
// PostgreSQL schema (dropped afterwards) with its own Redis key prefix (deleted afterwards).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Writable } from 'node:stream';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig, withSecretKey } from '../../src/config.js';
import { type Db, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { connectRedis, type Redis, redisReady } from '../../src/db/redis.js';
import type { Resolver } from '../../src/lib/address-policy.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { Geolocator } from '../../src/modules/proxies/geo.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from './engine.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: ManualClock;
  config: Config;
  redis?: Redis;
  /** Every log line the app wrote, for the no-secrets-in-logs checks. */
  logs: string[];
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Share storage with another test app (the two-process tests). */
  shareWith?: TestStorage;
  /** Extra routes registered before the app is ready (test-only routes). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
  clock?: ManualClock;
  /** Host-name answers for address checks (webhook URL rules). */
  resolver?: Resolver;
  /** Exit-IP geolocation for proxy checks (test proxies exit from 127.0.0.1). */
  geolocator?: Geolocator;
}

export interface TestStorage {
  pgSchema?: string;
  redisPrefix: string;
  sqliteFile?: string;
}

export function newStorage(): TestStorage {
  const suffix = randomBytes(6).toString('hex');
  return { pgSchema: TEST_DATABASE_URL ? `t_${suffix}` : undefined, redisPrefix: `test:${suffix}:` };
}

async function createSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`create schema if not exists ${schema}`);
  } finally {
    await client.end();
  }
}

export async function dropStorage(storage: TestStorage): Promise<void> {
  if (storage.pgSchema) {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(`drop schema if exists ${storage.pgSchema} cascade`);
    } finally {
      await client.end();
    }
  }
  if (TEST_REDIS_URL) {
    const redis = connectRedis(TEST_REDIS_URL);
    try {
      // Commands fail fast while disconnected, so wait for the connection first.
      if (!(await redisReady(redis, 5000))) throw new Error('Redis is not reachable for clean-up');
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${storage.redisPrefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    } finally {
      await redis.quit();
    }
  }
}

/** Cheap scrypt parameters: the production ones are proved in their own test. */
export const TEST_PASSWORD_PARAMS = { N: 1024, r: 8, p: 1 };

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp & { storage: TestStorage }> {
  const storage = options.shareWith ?? newStorage();
  const owner = !options.shareWith;
  if (storage.pgSchema && owner) await createSchema(storage.pgSchema);
  const config = withSecretKey(loadConfig({
    SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
    AUTH_RATE_LIMIT_PER_IP: '100000',
    REDIS_PREFIX: storage.redisPrefix,
    ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
    ...(TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL } : {}),
    ...options.env,
  }));
  const db = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: storage.sqliteFile ?? ':memory:', pgSchema: storage.pgSchema, poolSize: 5 });
  await migrateToLatest(db);
  const redis = config.redisUrl ? connectRedis(config.redisUrl) : undefined;
  // As `serve` does: start counting in Redis, not in the fallback, from the first request.
  if (redis && !(await redisReady(redis, 5000))) throw new Error(`Redis at ${config.redisUrl} is not reachable`);
  const clock = options.clock ?? new ManualClock(Date.parse('2026-03-02T10:00:00.000Z'));
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const app = await buildApp({ config, db, clock, redis, passwordParams: TEST_PASSWORD_PARAMS, logStream, geolocator: options.geolocator, resolver: options.resolver });
  try {
    await options.extend?.(app);
    await app.ready();
  } catch (error) {
    await app.close().catch(() => undefined);
    await db.close();
    await redis?.quit();
    if (owner) await dropStorage(storage);
    throw error;
  }
  return {
    app,
    db,
    clock,
    config,
    redis,
    logs,
    storage,
    async close() {
      await app.close();
      await db.close();
      await redis?.quit();
      if (owner) await dropStorage(storage);
    },
  };
}
