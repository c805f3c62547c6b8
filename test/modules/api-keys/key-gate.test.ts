// The key gate: 401 → 429 (key, then account) → 402 → 403, the rate-limit headers, and
// last_used_at only after every check passed.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { addScopedTestRoutes } from '../../helpers/scoped-routes.js';
import { createKey, type SignedUpUser, signUp, withKey } from '../../helpers/users.js';

const ADMIN = 'admin-token-for-tests-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN: ADMIN }, extend: addScopedTestRoutes });
});
afterAll(() => t.close());

const whoami = (headers: Record<string, string>) => t.app.inject({ url: '/api/whoami', headers });
const setPlan = (user: SignedUpUser, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/admin/users/${user.id}/subscription`, headers: { authorization: `Bearer ${ADMIN}` }, payload });
const lastUsed = async (keyId: number) =>
  (await t.db.kysely.selectFrom('api_keys').select('last_used_at').where('id', '=', keyId).executeTakeFirstOrThrow()).last_used_at;
async function flushedLastUsed(user: SignedUpUser, keyId: number) {
  await t.app.inject({ url: '/api/api-keys', headers: user.auth }); // listing flushes pending writes
  return lastUsed(keyId);
}

describe('401', () => {
  test('no key answers missing_api_key', async () => {
    const res = await whoami({});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: expect.any(String), details: { code: 'missing_api_key' } });
  });

  test.each([
    ['not a key', 'hello'],
    ['too short', 'svc_0123'],
    ['no prefix', '0'.repeat(48)],
    ['upper-case hex', `svc_${'A'.repeat(48)}`],
    ['trailing junk', `svc_${'0'.repeat(48)}x`],
    ['unknown but well formed', `svc_${'0'.repeat(48)}`],
  ])('%s answers invalid_api_key', async (_label, value) => {
    const res = await whoami({ 'x-api-key': value });
    expect(res.statusCode).toBe(401);
    expect(res.json().details.code).toBe('invalid_api_key');
  });

  test('a key sent in a mistyped header answers invalid_api_key and names X-API-KEY', async () => {
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user);
    const attempts: Record<string, string>[] = [{ authorization: `Bearer ${key}` }, { 'api-key': key }, { 'x-api_key': key }];
    for (const headers of attempts) {
      const res = await whoami(headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().details.code).toBe('invalid_api_key');
      expect(res.json().message).toContain('X-API-KEY');
    }
  });

  test('an expired key answers invalid_api_key, and is listed as Expired', async () => {
    const user = await signUp(t.app);
    await setPlan(user, { status: 'active' });
    const { key } = await createKey(t.app, user, { expires_in: '30d' });
    t.clock.advance(30 * 86_400_000 - 1);
    expect((await whoami(withKey(key))).statusCode).toBe(200);
    t.clock.advance(1);
    const res = await whoami(withKey(key));
    t.clock.advance(-30 * 86_400_000);
    expect(res.statusCode).toBe(401);
    expect(res.json().details.code).toBe('invalid_api_key');
  });

  test("a key whose owner is disabled answers api_key_not_user_scoped", async () => {
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user);
    await t.db.kysely.updateTable('users').set({ disabled_at: t.clock.now() }).where('id', '=', user.id).execute();
    const res = await whoami(withKey(key));
    expect(res.statusCode).toBe(401);
    expect(res.json().details.code).toBe('api_key_not_user_scoped');
  });

  test('401 responses carry no rate-limit headers and count nothing', async () => {
    const res = await whoami({ 'x-api-key': `svc_${'1'.repeat(48)}` });
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe('402 subscription_required', () => {
  test('a lapsed plan refuses key traffic; the same key works again after resubscribing', async () => {
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user);
    await setPlan(user, { status: 'inactive' });
    const res = await whoami(withKey(key));
    expect(res.statusCode).toBe(402);
    expect(res.json().details.code).toBe('subscription_required');
    expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '120', 'x-ratelimit-scope': 'key' });
    await setPlan(user, { status: 'active', plan: 'pro', current_period_end: null });
    expect((await whoami(withKey(key))).statusCode).toBe(200);
  });

  test('trial end and period end are honoured by the clock', async () => {
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user, { expires_in: '1y' });
    t.clock.advance(14 * 86_400_000 - 1);
    expect((await whoami(withKey(key))).statusCode).toBe(200);
    t.clock.advance(1);
    expect((await whoami(withKey(key))).statusCode).toBe(402);
    const end = new Date(t.clock.now() + 60_000).toISOString();
    await setPlan(user, { status: 'active', current_period_end: end });
    expect((await whoami(withKey(key))).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await whoami(withKey(key))).statusCode).toBe(402);
    t.clock.advance(-14 * 86_400_000 - 60_000);
  });
});

describe('403 insufficient_scope', () => {
  test('a key without the route scope is refused and told which scope would do', async () => {
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user, { scopes: ['macros:run'] });
    const res = await t.app.inject({ url: '/api/test/runs', headers: withKey(key) });
    expect(res.statusCode).toBe(403);
    expect(res.json().details).toEqual({ code: 'insufficient_scope', required_scopes: ['runs:read'] });
    // Refused key requests still carry the rate-limit headers (decisions.md §1).
    expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '120', 'x-ratelimit-scope': 'key' });
    expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    expect(res.headers['x-ratelimit-reset']).toBeDefined();
  });

  test('a scoped key on a full-access route is refused', async () => {
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user, { scopes: ['runs:read', 'macros:run', 'devices:control', 'macros:author', 'maps:read'] });
    const res = await t.app.inject({ url: '/api/test/full', headers: withKey(key) });
    expect(res.statusCode).toBe(403);
    expect(res.json().details).toMatchObject({ code: 'insufficient_scope', required_scopes: [], full_access_required: true });
  });

  test('the right scope, and a full-access key, pass', async () => {
    const user = await signUp(t.app);
    const scoped = await createKey(t.app, user, { scopes: ['runs:read'] });
    const full = await createKey(t.app, user);
    expect((await t.app.inject({ url: '/api/test/runs', headers: withKey(scoped.key) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/test/runs', headers: withKey(full.key) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/test/full', headers: withKey(full.key) })).statusCode).toBe(200);
    expect((await whoami(withKey(scoped.key))).statusCode).toBe(200);
  });
});

describe('order of checks', () => {
  test('402 comes before 403', async () => {
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user, { scopes: ['macros:run'] });
    await setPlan(user, { status: 'inactive' });
    expect((await t.app.inject({ url: '/api/test/runs', headers: withKey(key) })).statusCode).toBe(402);
  });

  test('429 comes before 402, and 402 and 403 answers still count', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_PER_KEY: '3', ADMIN_TOKEN: ADMIN }, extend: addScopedTestRoutes });
    try {
      const user = await signUp(limited.app);
      const { key } = await createKey(limited.app, user, { scopes: ['macros:run'] });
      const call = async (url: string) => (await limited.app.inject({ url, headers: withKey(key) })).statusCode;
      expect(await call('/api/test/runs')).toBe(403);
      await limited.app.inject({ method: 'PUT', url: `/admin/users/${user.id}/subscription`, headers: { authorization: `Bearer ${ADMIN}` }, payload: { status: 'inactive' } });
      expect(await call('/api/whoami')).toBe(402);
      expect(await call('/api/whoami')).toBe(402);
      // The 403 and the two 402s used the three requests of this window.
      expect(await call('/api/whoami')).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('last_used_at', () => {
  test('is written only when every check passes', async () => {
    const user = await signUp(t.app);
    const { key, id } = await createKey(t.app, user, { scopes: ['macros:run'] });
    await t.app.inject({ url: '/api/test/runs', headers: withKey(key) }); // 403
    expect(await flushedLastUsed(user, id)).toBeNull();
    await setPlan(user, { status: 'inactive' });
    await whoami(withKey(key)); // 402
    expect(await flushedLastUsed(user, id)).toBeNull();
    await setPlan(user, { status: 'active' });
    t.clock.advance(1234);
    await whoami(withKey(key)); // 200
    expect(await flushedLastUsed(user, id)).toBe(t.clock.now());
  });
});
