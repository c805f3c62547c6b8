// Routes hand services the caller as a ServiceContext built in one place: who (user, and the
// key or the session), with which scopes, the request's id and the client's address.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contextOf, originOf } from '../../src/http/request-context.js';
import { keyRoute, publicRoute, sessionRoute } from '../../src/http/route-auth.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createKey, signUp, withKey } from '../helpers/users.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { TRUST_PROXY: 'true' },
    extend: (app) => {
      app.get('/api/test/context/session', { config: sessionRoute(), schema: { hide: true } }, async (request) => ({ ...contextOf(request), id: request.id }));
      app.get('/api/test/context/key', { config: keyRoute(), schema: { hide: true } }, async (request) => ({ ...contextOf(request), id: request.id }));
      app.get('/test/origin', { config: publicRoute(), schema: { hide: true } }, async (request) => ({ ...originOf(request), id: request.id }));
    },
  });
});
afterAll(() => t.close());

describe('the service context of a request', () => {
  test('a session caller: the user and the session, no key, no scopes, the request id and the client address', async () => {
    const user = await signUp(t.app);
    const res = await t.app.inject({ url: '/api/test/context/session', headers: { ...user.auth, 'x-forwarded-for': '198.51.100.7' } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({ userId: user.id, keyId: null, sessionId: expect.any(Number), scopes: [], requestId: body.id, clientAddress: '198.51.100.7', id: expect.any(String) });
  });

  test('a key caller: the user, the key and its scopes, no session', async () => {
    const user = await signUp(t.app);
    const { key, id } = await createKey(t.app, user, { scopes: ['runs:read', 'macros:run'] });
    const res = await t.app.inject({ url: '/api/test/context/key', headers: withKey(key) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ userId: user.id, keyId: id, sessionId: null, scopes: ['runs:read', 'macros:run'], clientAddress: '127.0.0.1' });
  });

  test('a public request has an origin only: its id and the client address', async () => {
    const res = await t.app.inject({ url: '/test/origin', headers: { 'x-forwarded-for': '203.0.113.4' } });
    const body = res.json();
    expect(body).toEqual({ requestId: body.id, clientAddress: '203.0.113.4', id: expect.any(String) });
  });
});
