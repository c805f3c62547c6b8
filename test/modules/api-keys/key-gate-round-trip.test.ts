// On Redis the key gate costs one round trip per request once the key is cached: one script
// counts the key's window and the account's and reads the revocation epoch, and the epoch it
// returns decides whether the cached key still holds, so a bump made by any other process is
// honoured on the very next request. Runs against the suite's Redis (the PostgreSQL run) or a
// private redis-server (the SQLite run). The commands are seen by Redis itself (MONITOR),
// filtered to the app's own connection.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_REDIS_URL } from '../../helpers/engine.js';
import { freePort, hasRedisServer, startRedis, stopRedis } from '../../helpers/redis-server.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';

let t: TestApp;
let redisUrl: string;
let privateRedis: ChildProcess | undefined;
let other: Redis;

describe.skipIf(!TEST_REDIS_URL && !hasRedisServer())('the key gate on Redis', () => {
  beforeAll(async () => {
    if (TEST_REDIS_URL) redisUrl = TEST_REDIS_URL;
    else {
      const port = await freePort();
      privateRedis = await startRedis(port);
      redisUrl = `redis://127.0.0.1:${port}`;
    }
    t = await createTestApp({ env: { REDIS_URL: redisUrl } });
    // Another process's connection to the same Redis.
    other = new Redis(redisUrl);
  });
  afterAll(async () => {
    await other?.quit();
    await t?.close();
    if (privateRedis) await stopRedis(privateRedis);
  });

  const whoami = (key: string) => t.app.inject({ url: '/api/whoami', headers: withKey(key) });
  const window = () => Math.floor(t.clock.now() / 60_000);

  /** The commands Redis received on the app's connection while `work` ran, as MONITOR shows them. */
  async function commandsDuring(work: () => Promise<void>): Promise<string[][]> {
    const appConnection = t.redis?.stream;
    if (!appConnection) throw new Error('the test app has no Redis connection');
    const source = `${appConnection.localAddress}:${appConnection.localPort}`;
    const marker = `end-of-test-${randomBytes(4).toString('hex')}`;
    const monitor = await new Redis(redisUrl).monitor();
    const seen: string[][] = [];
    const ended = new Promise<void>((resolve) => {
      monitor.on('monitor', (_time: string, args: string[], from: string) => {
        if (from !== source) return;
        if (args[0].toLowerCase() === 'echo' && args[1] === marker) resolve();
        else seen.push(args);
      });
    });
    try {
      await work();
      // Sent last on the app's connection, so every command before it has been seen.
      await t.redis?.echo(marker);
      await ended;
    } finally {
      monitor.disconnect();
    }
    return seen;
  }

  test('a cached key costs one command per request: the script counting both windows and reading the epoch', async () => {
    const user = await signUp(t.app);
    const { key, id } = await createKey(t.app, user);
    expect((await whoami(key)).statusCode).toBe(200); // loads the key and caches it

    const remaining: string[] = [];
    const commands = await commandsDuring(async () => {
      for (let i = 0; i < 5; i++) {
        const res = await whoami(key);
        expect(res.statusCode).toBe(200);
        remaining.push(String(res.headers['x-ratelimit-remaining']));
      }
    });
    const prefix = t.config.redisPrefix;
    const expected = [
      'evalsha',
      expect.stringMatching(/^[0-9a-f]{40}$/),
      '3',
      `${prefix}auth:epoch`,
      `${prefix}rl:key:${id}:${window()}`,
      `${prefix}rl:account:${user.id}:${window()}`,
      '120000',
      '1',
      '120',
      '300',
    ];
    expect(commands).toEqual(Array.from({ length: 5 }, () => expected));
    expect(remaining).toEqual(['118', '117', '116', '115', '114']);
  });

  test("another process's epoch bump is honoured on the very next request", async () => {
    const user = await signUp(t.app);
    const { key, id } = await createKey(t.app, user);
    expect((await whoami(key)).statusCode).toBe(200); // cached now

    // Revoked behind the app's back (as another process would, without telling this one):
    // the cached key still answers until the epoch moves.
    await t.db.kysely.updateTable('api_keys').set({ revoked_at: t.clock.now() }).where('id', '=', id).execute();
    expect((await whoami(key)).statusCode).toBe(200);

    await other.incr(`${t.config.redisPrefix}auth:epoch`);
    const refused = await whoami(key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().details.code).toBe('invalid_api_key');
    expect(refused.headers['x-ratelimit-limit']).toBeUndefined();

    // The request that found the epoch moved was counted before its 401 (the harmless hit the
    // gate's comment describes); the key is now cached as revoked and refused uncounted.
    const counter = `${t.config.redisPrefix}rl:key:${id}:${window()}`;
    const account = `${t.config.redisPrefix}rl:account:${user.id}:${window()}`;
    expect(await other.mget(counter, account)).toEqual(['3', '3']);
    const later = await commandsDuring(async () => {
      expect((await whoami(key)).statusCode).toBe(401);
    });
    expect(later).toEqual([['get', `${t.config.redisPrefix}auth:epoch`]]);
    expect(await other.mget(counter, account)).toEqual(['3', '3']);
  });

  test('a request over the key limit is not counted against the account, in the same script', async () => {
    const limited = await createTestApp({ env: { REDIS_URL: redisUrl, RATE_LIMIT_PER_KEY: '2', RATE_LIMIT_PER_ACCOUNT: '10' } });
    try {
      const user = await signUp(limited.app);
      const { key, id } = await createKey(limited.app, user);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode);
      expect(statuses).toEqual([200, 200, 429, 429]);
      const w = Math.floor(limited.clock.now() / 60_000);
      const prefix = limited.config.redisPrefix;
      expect(await other.mget(`${prefix}rl:key:${id}:${w}`, `${prefix}rl:account:${user.id}:${w}`)).toEqual(['4', '2']);
      expect(await other.pttl(`${prefix}rl:key:${id}:${w}`)).toBeGreaterThan(60_000);
    } finally {
      await limited.close();
    }
  });
});
