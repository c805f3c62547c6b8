// Walks every registered route. Key routes must refuse a missing, a malformed and a
// revoked key, and an out-of-scope key where they have a scope; application routes must
// refuse a key; admin routes must refuse a key and a signed-in session. Routes added by
// later issues are covered without writing anything here.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SCOPES } from '../../src/core/context.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createKey, type SignedUpUser, signUp } from '../helpers/users.js';

let t: TestApp;
let user: SignedUpUser;
let validKey: string;
let revokedKey: string;
const keysByScope = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN: 'admin-token-for-tests-0123456789' } });
  user = await signUp(t.app);
  validKey = (await createKey(t.app, user)).key;
  const revoked = await createKey(t.app, user);
  await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${revoked.id}`, headers: user.auth });
  revokedKey = revoked.key;
  // For each scope, a key holding every other scope: it must be refused on that scope's routes.
  for (const scope of SCOPES) {
    keysByScope.set(scope, (await createKey(t.app, user, { scopes: SCOPES.filter((s) => s !== scope) })).key);
  }
  keysByScope.set('full', (await createKey(t.app, user, { scopes: [...SCOPES] })).key);
});
afterAll(() => t.close());

const concrete = (url: string) => url.replace(/:[A-Za-z_]+/g, '1');
const send = (method: string, url: string, headers: Record<string, string>) =>
  t.app.inject({ method: method as 'GET', url: concrete(url), headers, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });

describe('the route catalog', () => {
  test('has key routes, application routes and admin routes', () => {
    const kinds = new Set(t.app.routeCatalog.map((r) => r.auth.kind));
    expect(kinds).toContain('apiKey');
    expect(kinds).toContain('session');
    expect(kinds).toContain('admin');
  });

  test('an /api route that declares no auth stops the app from starting', async () => {
    await expect(
      createTestApp({ extend: (app) => void app.get('/api/undeclared', async () => ({})) }),
    ).rejects.toThrow(/declares no auth/);
  });
});

describe('every key route', () => {
  const keyRoutes = () => t.app.routeCatalog.filter((r) => r.auth.kind === 'apiKey');

  test('refuses a missing key with 401 missing_api_key', async () => {
    for (const route of keyRoutes()) {
      const res = await send(route.method, route.url, {});
      expect([route.url, res.statusCode, res.json().details.code]).toEqual([route.url, 401, 'missing_api_key']);
    }
  });

  test('refuses a malformed key and a revoked key with 401 invalid_api_key', async () => {
    for (const route of keyRoutes()) {
      for (const key of ['svc_short', revokedKey]) {
        const res = await send(route.method, route.url, { 'x-api-key': key });
        expect([route.url, res.statusCode, res.json().details.code]).toEqual([route.url, 401, 'invalid_api_key']);
      }
    }
  });

  test('refuses a key without the route scope with 403 insufficient_scope', async () => {
    for (const route of keyRoutes()) {
      if (route.auth.kind !== 'apiKey' || route.auth.scope === null) continue;
      const key = keysByScope.get(route.auth.scope);
      if (!key) throw new Error(`no test key for ${route.auth.scope}`);
      const res = await send(route.method, route.url, { 'x-api-key': key });
      expect([route.url, res.statusCode, res.json().details.code]).toEqual([route.url, 403, 'insufficient_scope']);
    }
  });
});

describe('every application route', () => {
  test('refuses a valid key with 401 missing_credentials', async () => {
    const appRoutes = t.app.routeCatalog.filter((r) => r.auth.kind === 'session');
    expect(appRoutes.length).toBeGreaterThan(0);
    for (const route of appRoutes) {
      const res = await send(route.method, route.url, { 'x-api-key': validKey });
      expect([route.url, res.statusCode, res.json().details.code]).toEqual([route.url, 401, 'missing_credentials']);
    }
  });
});

describe('every admin route', () => {
  test('refuses a key and a session with 401', async () => {
    const adminRoutes = t.app.routeCatalog.filter((r) => r.auth.kind === 'admin');
    expect(adminRoutes.length).toBeGreaterThan(0);
    // The session is the signed-in owner's, whose key the same user made: neither stands in
    // for the operator's token, alone or together.
    const credentials: [string, Record<string, string>][] = [
      ['a key', { 'x-api-key': validKey }],
      ['a session', user.auth],
      ['a key and a session', { 'x-api-key': validKey, ...user.auth }],
    ];
    for (const route of adminRoutes) {
      for (const [label, headers] of credentials) {
        const res = await send(route.method, route.url, headers);
        expect([route.url, label, res.statusCode]).toEqual([route.url, label, 401]);
      }
    }
  });
});
