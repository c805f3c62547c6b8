// Redis going away degrades the service but never breaks it: key requests are answered
// from the database, a revocation still takes effect at once, and rate limits fall back
// to per-process counting. The Redis here is a private redis-server the test starts and
// stops, as an operator's Redis would fail.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { freePort, hasRedisServer, startRedis, stopRedis as stop } from '../helpers/redis-server.js';
import { createKey, signUp, withKey } from '../helpers/users.js';

describe.skipIf(!hasRedisServer())('when Redis goes away', () => {
  let t: TestApp;
  let redisProcess: ChildProcess;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    redisProcess = await startRedis(port);
    t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_PER_KEY: '5' } });
  });
  afterAll(async () => {
    await t?.close();
    if (redisProcess) await stop(redisProcess);
  });

  test('keys keep working from the database, revocation stays immediate, and limits still hold', async () => {
    const user = await signUp(t.app);
    const { key, id } = await createKey(t.app, user);
    const other = await createKey(t.app, user);
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(200); // now cached

    await stop(redisProcess);
    for (let i = 0; i < 50 && t.redis?.status === 'ready'; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await t.app.inject({ url: '/readyz' })).json().checks.redis).toBe('down');

    // The cached key: its counting script finds no Redis, so the database answers for it.
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(other.key) })).statusCode).toBe(200);
    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${id}`, headers: user.auth });
    expect(revoked.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(401);

    // The in-process insurance limiter still counts: 5 per key per window.
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.app.inject({ url: '/api/whoami', headers: withKey(other.key) })).statusCode);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 500)).toEqual([]);

    // When Redis is back, the revocation made during the outage is announced.
    redisProcess = await startRedis(port);
    for (let i = 0; i < 100 && t.redis?.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 50));
    expect(t.redis?.status).toBe('ready');
    for (let i = 0; i < 60; i++) {
      if ((await t.redis?.get(`${t.config.redisPrefix}auth:epoch`)) !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(Number(await t.redis?.get(`${t.config.redisPrefix}auth:epoch`))).toBeGreaterThan(0);
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(401);
  });
});
