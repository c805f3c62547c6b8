// Two app instances sharing PostgreSQL and Redis, as two `serve` processes would: a
// revocation or a subscription change made through one is honoured by the other on its
// very next request, although the other had the key cached; rate limits are shared.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp, type TestStorage } from '../../helpers/app.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../helpers/engine.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';

const ADMIN = 'admin-token-for-tests-0123456789';
let a: TestApp & { storage: TestStorage };
let b: TestApp;

describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('two processes on PostgreSQL and Redis', () => {
  beforeAll(async () => {
    a = await createTestApp({ env: { ADMIN_TOKEN: ADMIN } });
    b = await createTestApp({ env: { ADMIN_TOKEN: ADMIN }, shareWith: a.storage, clock: a.clock });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  test('a key revoked through one instance is refused by the other on its next request', async () => {
    const user = await signUp(a.app);
    const { key, id } = await createKey(a.app, user);
    // B has now resolved (and cached) the key.
    expect((await b.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(200);
    expect((await b.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(200);
    expect((await a.app.inject({ method: 'DELETE', url: `/api/api-keys/${id}`, headers: user.auth })).statusCode).toBe(200);
    const res = await b.app.inject({ url: '/api/whoami', headers: withKey(key) });
    expect(res.statusCode).toBe(401);
    expect(res.json().details.code).toBe('invalid_api_key');
  });

  test('a lapsed subscription set through one instance is enforced by the other at once', async () => {
    const user = await signUp(a.app);
    const { key } = await createKey(a.app, user);
    expect((await b.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(200);
    await a.app.inject({ method: 'PUT', url: `/admin/users/${user.id}/subscription`, headers: { authorization: `Bearer ${ADMIN}` }, payload: { status: 'inactive' } });
    expect((await b.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(402);
  });

  test('the per-key window is shared: 120 across both instances', async () => {
    a.clock.set((Math.floor(a.clock.now() / 60_000) + 1) * 60_000);
    const user = await signUp(a.app);
    const { key } = await createKey(a.app, user);
    const responses = await Promise.all(
      Array.from({ length: 150 }, (_, i) => (i % 2 ? a : b).app.inject({ url: '/api/whoami', headers: withKey(key) })),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(120);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(30);
  });
});
