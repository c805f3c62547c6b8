// Fixed one-minute windows: 120 per key, then 300 per account across all its keys. Exact
// under concurrency, on the in-memory store and on Redis. Session traffic is not counted.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createKey, signUp, withKey } from '../helpers/users.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Start each test at the beginning of a window, so none straddles two.
  t.clock.set(Math.ceil(t.clock.now() / 60_000) * 60_000);
});
afterAll(() => t.close());

const nextWindow = () => t.clock.set((Math.floor(t.clock.now() / 60_000) + 1) * 60_000);

describe('per key', () => {
  test('of 150 parallel requests on one key in one window exactly 120 pass', async () => {
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user);
    const responses = await Promise.all(Array.from({ length: 150 }, () => t.app.inject({ url: '/api/whoami', headers: withKey(key) })));
    const ok = responses.filter((r) => r.statusCode === 200);
    const limited = responses.filter((r) => r.statusCode === 429);
    expect(ok).toHaveLength(120);
    expect(limited).toHaveLength(30);

    const resetAt = String((Math.floor(t.clock.now() / 60_000) + 1) * 60);
    for (const res of limited) {
      expect(res.json().details.code).toBe('rate_limit_exceeded');
      expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '120', 'x-ratelimit-remaining': '0', 'x-ratelimit-scope': 'key', 'x-ratelimit-reset': resetAt, 'retry-after': '60' });
    }
    // Every answer carries the headers; remaining counts down to zero with no repeats.
    const remaining = ok.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => i));
    expect(ok.every((r) => r.headers['x-ratelimit-scope'] === 'key' && r.headers['retry-after'] === undefined)).toBe(true);
  });

  test('Retry-After counts the seconds left in the window, and the next window starts afresh', async () => {
    nextWindow();
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user);
    for (let i = 0; i < 120; i++) await t.app.inject({ url: '/api/whoami', headers: withKey(key) });
    t.clock.advance(45_500);
    const refused = await t.app.inject({ url: '/api/whoami', headers: withKey(key) });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('15');
    t.clock.advance(14_500);
    const next = await t.app.inject({ url: '/api/whoami', headers: withKey(key) });
    expect(next.statusCode).toBe(200);
    expect(next.headers['x-ratelimit-remaining']).toBe('119');
  });
});

describe('per account', () => {
  test('300 requests per minute across all keys; the next gets 429 with scope account', async () => {
    nextWindow();
    const user = await signUp(t.app);
    const keys = await Promise.all([0, 1, 2].map(() => createKey(t.app, user)));
    const responses = await Promise.all(
      keys.flatMap(({ key }) => Array.from({ length: 110 }, () => t.app.inject({ url: '/api/whoami', headers: withKey(key) }))),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(300);
    const refused = responses.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(30);
    for (const res of refused) {
      expect(res.headers['x-ratelimit-scope']).toBe('account');
      expect(res.headers['x-ratelimit-limit']).toBe('300');
      expect(res.json().details.code).toBe('rate_limit_exceeded');
    }
    // A fourth key does not raise the account's throughput.
    const extra = await createKey(t.app, user);
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(extra.key) })).statusCode).toBe(429);
    // Another account is not affected.
    const other = await signUp(t.app);
    const otherKey = await createKey(t.app, other);
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(otherKey.key) })).statusCode).toBe(200);
  });

  test('headers report the account window once it is tighter than the key window', async () => {
    nextWindow();
    const user = await signUp(t.app);
    const keys = await Promise.all([0, 1, 2].map(() => createKey(t.app, user)));
    for (const { key } of keys) for (let i = 0; i < 100; i++) await t.app.inject({ url: '/api/whoami', headers: withKey(key) });
    const fresh = await createKey(t.app, user);
    const res = await t.app.inject({ url: '/api/whoami', headers: withKey(fresh.key) });
    expect(res.statusCode).toBe(429); // 300 used by the account already
    nextWindow();
    for (let i = 0; i < 250; i++) await t.app.inject({ url: '/api/whoami', headers: withKey(keys[i % 3].key) });
    const tight = await t.app.inject({ url: '/api/whoami', headers: withKey(fresh.key) });
    expect(tight.statusCode).toBe(200);
    expect(tight.headers).toMatchObject({ 'x-ratelimit-scope': 'account', 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '49' });
  });
});

describe('what is not counted', () => {
  test('session traffic counts against neither window', async () => {
    nextWindow();
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user);
    for (let i = 0; i < 150; i++) expect((await t.app.inject({ url: '/api/api-keys', headers: user.auth })).statusCode).toBe(200);
    const res = await t.app.inject({ url: '/api/whoami', headers: withKey(key) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('119');
  });
});

describe('configuration', () => {
  test('RATE_LIMIT_PER_KEY and RATE_LIMIT_PER_ACCOUNT set the limits', async () => {
    const custom = await createTestApp({ env: { RATE_LIMIT_PER_KEY: '5', RATE_LIMIT_PER_ACCOUNT: '7' } });
    try {
      const user = await signUp(custom.app);
      const a = await createKey(custom.app, user);
      const b = await createKey(custom.app, user);
      const first = await custom.app.inject({ url: '/api/whoami', headers: withKey(a.key) });
      expect(first.headers['x-ratelimit-limit']).toBe('5');
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await custom.app.inject({ url: '/api/whoami', headers: withKey(a.key) })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      const fromB = [];
      for (let i = 0; i < 3; i++) fromB.push((await custom.app.inject({ url: '/api/whoami', headers: withKey(b.key) })).statusCode);
      expect(fromB).toEqual([200, 200, 429]);
    } finally {
      await custom.close();
    }
  });
});
