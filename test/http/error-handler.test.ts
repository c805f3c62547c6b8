// The error envelope on every failure: malformed JSON, wrong content type, oversized
// bodies, unknown routes, and a 500 that shows no stack but is logged with its cause.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { keyRoute } from '../../src/http/route-auth.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signUp } from '../helpers/users.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    extend: (app) => {
      app.get('/boom', { config: { auth: { kind: 'public' } }, schema: { hide: true } }, async () => {
        throw new Error('database exploded at /secret/path');
      });
      app.get('/api/test/any-key', { config: keyRoute(), schema: { hide: true } }, async () => ({ ok: true }));
    },
  });
});
afterAll(() => t.close());

describe('error envelope', () => {
  test('malformed JSON answers 400 bad_request', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', headers: { 'content-type': 'application/json' }, payload: '{"email": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: expect.any(String), details: { code: 'bad_request' } });
  });

  test('a body that is not JSON answers 400 bad_request', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', headers: { 'content-type': 'text/plain' }, payload: 'email=a' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.code).toBe('bad_request');
  });

  test('a JSON body that is not an object answers 422', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', headers: { 'content-type': 'application/json' }, payload: '[1,2]' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.code).toBe('validation_failed');
  });

  test('a body over 1 MiB answers 413 payload_too_large and creates nothing', async () => {
    const email = 'big@example.com';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email, password: 'long enough', name: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().details.code).toBe('payload_too_large');
    expect(await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });

  test('an empty body with a JSON content type is treated as no body', async () => {
    const user = await signUp(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { ...user.auth, 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(204);
  });

  test('an unknown route answers 404 in the envelope', async () => {
    const res = await t.app.inject({ url: '/api/nothing-here?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'No route GET /api/nothing-here.', details: { code: 'not_found' } });
  });

  test('an unexpected failure answers a generic 500 without a stack, and logs the cause', async () => {
    const res = await t.app.inject({ url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: expect.any(String), details: { code: 'internal_error' } });
    expect(res.body).not.toContain('exploded');
    expect(res.body).not.toContain('.ts');
    expect(t.logs.some((line) => line.includes('database exploded'))).toBe(true);
  });
});
