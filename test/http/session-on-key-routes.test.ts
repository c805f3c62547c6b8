// Key routes also accept the owner's own signed-in session (the application reads and writes
// the same resources as its keys): full access, no per-key limits, no key subscription check.
// `/api/whoami` is about the key itself and stays key-only.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createKey, type SignedUpUser, signUp, withKey } from '../helpers/users.js';

let t: TestApp;
let ada: SignedUpUser;
let bob: SignedUpUser;
let adaKey: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN: 'admin-token-for-tests-0123456789' } });
  ada = await signUp(t.app);
  bob = await signUp(t.app);
  adaKey = (await createKey(t.app, ada)).key;
});
afterAll(() => t.close());

describe('a session on key routes', () => {
  test('every key route but whoami admits the session (no 401, 402, 403 or 429) and counts no key limits', async () => {
    const keyRoutes = t.app.routeCatalog.filter((r) => r.auth.kind === 'apiKey' && !r.auth.keyOnly);
    expect(keyRoutes.length).toBeGreaterThan(20);
    for (const route of keyRoutes) {
      const url = route.url.replace(/:[A-Za-z_]+/g, '1');
      const res = await t.app.inject({ method: route.method as 'GET', url, headers: ada.auth, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }) });
      expect([route.method, route.url, [401, 402, 403, 429].includes(res.statusCode)]).toEqual([route.method, route.url, false]);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  test("answers what the owner's key answers, and writes as the owner", async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/proxy', headers: ada.auth, payload: { host: 'proxy.example.com', port: 8080, label: 'by session' } });
    expect(created.statusCode).toBe(201);
    const bySession = await t.app.inject({ url: '/api/proxy', headers: ada.auth });
    const byKey = await t.app.inject({ url: '/api/proxy', headers: withKey(adaKey) });
    expect(bySession.statusCode).toBe(200);
    expect(bySession.json()).toEqual(byKey.json());
    expect(byKey.json().rows.map((r: { label: string }) => r.label)).toEqual(['by session']);
  });

  test("another account's session sees none of it, and its ids answer 404", async () => {
    const id = (await t.app.inject({ url: '/api/proxy', headers: ada.auth })).json().rows[0].id;
    expect((await t.app.inject({ url: '/api/proxy', headers: bob.auth })).json().total_rows).toBe(0);
    for (const [method, url] of [['GET', `/api/proxy/${id}`], ['DELETE', `/api/proxy/${id}`]] as const) {
      const res = await t.app.inject({ method, url, headers: bob.auth });
      expect([method, res.statusCode, res.json().details.code]).toEqual([method, 404, 'not_found']);
    }
    expect((await t.app.inject({ url: `/api/proxy/${id}`, headers: ada.auth })).statusCode).toBe(200);
  });

  test('works without an active plan (the application is not key traffic)', async () => {
    const admin = { authorization: 'Bearer admin-token-for-tests-0123456789' };
    const lapsed = await t.app.inject({ method: 'PUT', url: `/admin/users/${ada.id}/subscription`, headers: admin, payload: { status: 'inactive' } });
    expect(lapsed.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/executions', headers: withKey(adaKey) })).statusCode).toBe(402);
    expect((await t.app.inject({ url: '/api/executions', headers: ada.auth })).statusCode).toBe(200);
    await t.app.inject({ method: 'PUT', url: `/admin/users/${ada.id}/subscription`, headers: admin, payload: { status: 'trialing', trial_ends_at: '2027-01-01T00:00:00Z' } });
  });

  test('a signed-out session answers 401 missing_credentials', async () => {
    const carol = await signUp(t.app);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: carol.auth })).statusCode).toBe(204);
    const res = await t.app.inject({ url: '/api/executions', headers: carol.auth });
    expect([res.statusCode, res.json().details.code]).toEqual([401, 'missing_credentials']);
  });

  test('the session cookie works as well as the bearer token', async () => {
    const res = await t.app.inject({ url: '/api/proxy', headers: { cookie: `session=${ada.token}` } });
    expect(res.statusCode).toBe(200);
  });

  test('whoami stays key-only: a session gets 401 and the key its record', async () => {
    const bySession = await t.app.inject({ url: '/api/whoami', headers: ada.auth });
    expect([bySession.statusCode, bySession.json().details.code]).toEqual([401, 'invalid_api_key']);
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(adaKey) })).statusCode).toBe(200);
  });

  test('a key wins when both are sent: its scopes and limits apply', async () => {
    const runsOnly = (await createKey(t.app, ada, { scopes: ['runs:read'] })).key;
    const res = await t.app.inject({ url: '/api/webhooks', headers: { ...ada.auth, ...withKey(runsOnly) } });
    expect([res.statusCode, res.json().details.code]).toEqual([403, 'insufficient_scope']);
  });

  test('the description lists both ways for key routes, and only the key for whoami', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    expect(doc.paths['/api/executions'].get.security).toEqual([{ apiKey: [] }, { session: [] }]);
    expect(doc.paths['/api/whoami'].get.security).toEqual([{ apiKey: [] }]);
  });
});
