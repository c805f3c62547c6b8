// @ts-check
// The engine set-up every benchmark shares: the settings, a fresh database (a SQLite file in
// a temporary folder, or a PostgreSQL schema) migrated to the latest schema, Redis under a
// fresh key prefix, the app, and a clean-up step for each of them.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../../dist/app.js';
import { loadConfig, withSecretKey } from '../../dist/config.js';
import { openDatabase } from '../../dist/db/database.js';
import { migrateToLatest } from '../../dist/db/migrate.js';
import { connectRedis } from '../../dist/db/redis.js';
import { systemClock } from '../../dist/lib/clock.js';
import { benchEnv, deleteRedisKeys, request, withPg } from '../lib.js';

/** @typedef {ReturnType<typeof import('../lib.js').benchTarget>} BenchTarget */
/** @typedef {ReturnType<typeof import('../lib.js').cleanupStack>} CleanupStack */
/** @typedef {import('../../dist/config.js').Config} Config */
/** @typedef {import('../../dist/db/database.js').Db} Db */
/** @typedef {ReturnType<typeof connectRedis>} Redis */
/** @typedef {Awaited<ReturnType<typeof buildApp>>} App */

/** Cheap password hashing: sign-ups are set-up, not what a benchmark measures. */
export const BENCH_PASSWORD_PARAMS = { N: 1024, r: 8, p: 1 };

/**
 * The settings a benchmark app runs with (see `benchEnv`), the secret key resolved.
 * @param {BenchTarget} target
 * @param {Record<string, string>} [extra]
 * @returns {Config}
 */
export function benchConfig(target, extra = {}) {
  return withSecretKey(loadConfig(benchEnv(target, extra)));
}

/**
 * Creates the target's storage, opens and migrates the database and connects Redis (when the
 * target has one); each step pushes its clean-up, so `cleanups.run()` removes everything.
 * `keep` leaves the seeded database in place and says where it is.
 * @param {BenchTarget} target
 * `sqlite`: how the SQLite connection is opened (a benchmark's baseline); the service's defaults when absent.
 * @param {{ cleanups: CleanupStack, keep?: boolean, sqliteName?: string, poolSize?: number, redis?: boolean, sqlite?: { checkpoints?: 'background' | 'inline', statementsKept?: number } }} options
 * @returns {Promise<{ db: Db, redis: Redis | undefined, sqliteFile: string | undefined }>}
 */
export async function openBenchEngine(target, { cleanups, keep = false, sqliteName = 'bench.sqlite', poolSize, redis: withRedis = true, sqlite }) {
  const { tempDir, pgSchema, databaseUrl, redisUrl, redisPrefix } = target;
  const sqliteFile = tempDir ? join(tempDir, sqliteName) : undefined;
  if (tempDir) cleanups.push(() => (keep ? console.log(`kept: SQLite file ${sqliteFile}`) : rmSync(tempDir, { recursive: true, force: true })));
  if (pgSchema && databaseUrl) {
    await withPg(databaseUrl, `create schema ${pgSchema}`);
    cleanups.push(() => (keep ? console.log(`kept: PostgreSQL schema ${pgSchema}`) : withPg(databaseUrl, `drop schema if exists ${pgSchema} cascade`)));
  }
  const db = openDatabase({ databaseUrl, sqliteFile, pgSchema, ...(poolSize ? { poolSize } : {}), ...sqlite });
  cleanups.push(() => db.close());
  await migrateToLatest(db);
  const redis = withRedis && redisUrl ? connectRedis(redisUrl) : undefined;
  if (redis) {
    cleanups.push(() => redis.quit());
    cleanups.push(() => deleteRedisKeys(redis, redisPrefix));
  }
  return { db, redis, sqliteFile };
}

/**
 * What `buildApp` takes for a benchmark app.
 * @param {Config} config
 * @param {Db} db
 * @param {Redis | undefined} redis
 */
export const benchAppDeps = (config, db, redis) => ({ config, db, clock: systemClock, redis, passwordParams: BENCH_PASSWORD_PARAMS });

/**
 * Builds the app; the clean-up closes it.
 * @param {ReturnType<typeof benchAppDeps>} deps
 * @param {CleanupStack} cleanups
 * @returns {Promise<App>}
 */
export async function startBenchApp(deps, cleanups) {
  const app = await buildApp(deps);
  cleanups.push(() => app.close());
  return app;
}

/**
 * Listens on a free port of 127.0.0.1 and answers the base URL.
 * @param {App} app
 */
export async function listenLocally(app) {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the app is not listening on a TCP port');
  return `http://127.0.0.1:${address.port}`;
}

/**
 * Signs a new user up over HTTP and answers their id and session header.
 * @param {string} base
 * @param {string} email
 * @param {string} password
 */
export async function signUpOverHttp(base, email, password) {
  const signedIn = await request(base, 'POST', '/api/auth/signup', { body: { email, password, name: 'Bench' } });
  return { id: /** @type {number} */ (signedIn.user.id), email: /** @type {string} */ (signedIn.user.email), auth: { authorization: `Bearer ${signedIn.session.token}` } };
}

/**
 * A signed-up account with a ready simulated phone, made over HTTP as a person would, with the
 * devices module's workers running (stopped by the cleanups): what the device benches start from.
 * @param {any} app the built app (startBenchApp)
 * @param {string} base its address (listenLocally)
 * @param {{ label: string; suffix: string; deviceName: string }} who
 * @param {CleanupStack} cleanups
 */
export async function readySimPhone(app, base, { label, suffix, deviceName }, cleanups) {
  const workers = app.modules.devices.workers ?? [];
  for (const worker of workers) worker.start();
  cleanups.push(() => Promise.all(workers.map((/** @type {any} */ worker) => worker.stop())));
  const { auth, id: userId } = await signUpOverHttp(base, `bench-${label}-${suffix}@example.com`, `pw-${suffix}`);
  const device = await request(base, 'POST', '/api/hosted/devices', { body: { name: deviceName }, headers: auth });
  await request(base, 'POST', `/api/hosted/devices/${device.id}/start`, { headers: auth });
  await app.modules.devices.services.lifecycle.waitUntilReady(device.id, { timeoutMs: 10_000 });
  const driver = await app.modules.devices.services.host.driver(device.id);
  return { auth, userId, device, driver };
}
