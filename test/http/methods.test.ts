// HEAD is answered wherever GET is (RFC 9110 §9.3.2), with the GET's status and headers and
// no body; a method a known path does not have answers 405 with `Allow`; an unknown path
// stays 404.
import { beforeAll, describe, expect, test } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { useAppAndUser } from '../helpers/app-user.js';
import { createKey, type SignedUpUser, withKey } from '../helpers/users.js';

const world = useAppAndUser();
let t: TestApp;
let user: SignedUpUser;
let key: Record<string, string>;
let macroId: number;
beforeAll(async () => {
  ({ t, user } = world);
  key = withKey((await createKey(t.app, user)).key);
  macroId = (await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'M', kind: 'block' } })).json().id;
});

describe('HEAD', () => {
  test.each([
    ['/healthz', {}],
    ['/openapi.json', {}],
    ['/openapi.yaml', {}],
    ['/metrics', {}],
    ['/docs/', {}],
    ['/docs/static/swagger-ui-bundle.js', {}],
    ['/api/macros', 'session'],
    ['/api/whoami', 'key'],
    ['/api/proxy?page=1', 'key'],
  ] as const)('HEAD %s answers as GET does, without a body', async (url, auth) => {
    const headers = auth === 'session' ? user.auth : auth === 'key' ? key : {};
    const get = await t.app.inject({ method: 'GET', url, headers });
    const head = await t.app.inject({ method: 'HEAD', url, headers });
    expect([url, get.statusCode]).toEqual([url, 200]);
    expect([url, head.statusCode]).toEqual([url, 200]);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    // /metrics changes between the two requests (the GET itself is counted).
    if (get.headers['content-length'] !== undefined && url !== '/metrics') expect(head.headers['content-length']).toBe(get.headers['content-length']);
  });

  test('HEAD on a guarded route is guarded like GET', async () => {
    const noKey = await t.app.inject({ method: 'HEAD', url: '/api/whoami' });
    expect(noKey.statusCode).toBe(401);
    expect(noKey.body).toBe('');
    expect((await t.app.inject({ method: 'HEAD', url: '/api/macros', headers: key })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'HEAD', url: `/api/macros/${macroId}`, headers: user.auth })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'HEAD', url: '/api/macros/999999', headers: user.auth })).statusCode).toBe(404);
  });

  test('HEAD routes are not listed as operations of their own', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const heads = Object.entries(doc.paths).filter(([, ops]) => 'head' in ops);
    expect(heads).toEqual([]);
    expect(t.app.routeCatalog.filter((r) => r.method === 'HEAD')).toEqual([]);
  });
});

describe('405 for a method the path does not have', () => {
  test.each([
    ['PATCH', `/api/macros/1`, 'GET, HEAD, PUT, DELETE'],
    ['DELETE', '/api/macros', 'GET, HEAD, POST'],
    ['POST', '/healthz', 'GET, HEAD'],
    ['PUT', '/api/auth/login', 'POST'],
    ['OPTIONS', '/api/whoami', 'GET, HEAD'],
  ] as const)('%s %s answers 405 with Allow: %s', async (method, url, allow) => {
    const res = await t.app.inject({ method, url, headers: user.auth });
    expect([method, url, res.statusCode]).toEqual([method, url, 405]);
    expect(res.headers.allow).toBe(allow);
    expect(res.json()).toEqual({ message: `${method} is not allowed on ${url}; use ${allow}.`, details: { code: 'method_not_allowed' } });
  });

  test('the query string does not change the answer', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/api/macros?page=2' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
  });

  test('an unknown path stays 404 not_found, whatever the method', async () => {
    for (const method of ['GET', 'PATCH', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url: '/api/nothing-here' });
      expect([method, res.statusCode]).toEqual([method, 404]);
      if (method !== 'HEAD') expect(res.json().details.code).toBe('not_found');
      expect(res.headers.allow).toBeUndefined();
    }
  });
});
