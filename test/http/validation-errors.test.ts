// Validation errors are reported capped: the first 10 in `details.errors`, the total in
// `details.error_count`, and a one-line message, so a large bad body cannot buy a reply
// many times its size. Sign-in and sign-up attempts count against the per-address limit
// whether or not their body is valid.
import { beforeAll, describe, expect, test } from 'vitest';
import { MAX_REPORTED_ERRORS, ValidationError } from '../../src/core/errors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { useAppAndUser } from '../helpers/app-user.js';
import type { SignedUpUser } from '../helpers/users.js';

const world = useAppAndUser();
let t: TestApp;
let user: SignedUpUser;
beforeAll(() => ({ t, user } = world));

const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload });

describe('capped validation errors', () => {
  test('an 800 kB body full of mistakes gets a reply of a few hundred bytes', async () => {
    // 100,000 samples, each missing its three fields and carrying an unknown one.
    const payload = `{"samples":[${Array.from({ length: 100_000 }, () => '{"x":1}').join(',')}]}`;
    expect(payload.length).toBeGreaterThan(800_000);
    const res = await post('/api/proxy/usage', payload, user.auth);
    expect(res.statusCode).toBe(422);
    expect(res.body.length).toBeLessThan(3000);
    const body = res.json();
    expect(body.details.code).toBe('validation_failed');
    expect(body.details.errors).toHaveLength(MAX_REPORTED_ERRORS);
    expect(body.details.error_count).toBeGreaterThan(100_000);
    expect(body.details.errors[0]).toEqual({ path: expect.stringMatching(/^body\.samples/), message: expect.any(String) });
    expect(body.message).toBe(`Validation failed: ${body.details.errors[0].path} ${body.details.errors[0].message} (and ${body.details.error_count - 1} more).`);
  });

  test('a 209 kB unauthenticated sign-in gets a short reply', async () => {
    const extra = Array.from({ length: 20_000 }, (_, i) => `"f${i}":1`).join(',');
    const payload = `{"email":"a@example.com","password":"x",${extra}}`;
    expect(payload.length).toBeGreaterThan(200_000);
    const res = await post('/api/auth/login', payload);
    expect(res.statusCode).toBe(422);
    expect(res.body.length).toBeLessThan(3000);
    expect(res.json().details).toMatchObject({ code: 'validation_failed', error_count: 20_000 });
    expect(res.json().details.errors).toHaveLength(10);
  });

  test('one error is reported whole, with a count of one and no "more"', async () => {
    const res = await post('/api/auth/signup', '{"email":"a@example.com"}');
    expect(res.json()).toEqual({
      message: 'Validation failed: body.password is required.',
      details: { code: 'validation_failed', errors: [{ path: 'body.password', message: 'is required' }], error_count: 1 },
    });
  });

  test('a very long field name is shortened in the report', async () => {
    const name = 'n'.repeat(100_000);
    const res = await post('/api/auth/signup', `{"email":"a@example.com","password":"long enough","${name}":1}`);
    expect(res.statusCode).toBe(422);
    expect(res.body.length).toBeLessThan(1000);
    expect(res.json().details.errors[0].path).toMatch(/^body\.n+…$/);
  });

  test('errors a service raises are capped the same way', () => {
    const errors = Array.from({ length: 25 }, (_, i) => ({ path: `body.items.${i}`, message: 'is wrong' }));
    const error = new ValidationError(errors);
    expect(error.extra).toEqual({ errors: errors.slice(0, 10), error_count: 25 });
    expect(error.message).toBe('Validation failed: body.items.0 is wrong (and 24 more).');
  });
});

describe('the sign-in limit counts every attempt', () => {
  test('malformed, invalid and oversized sign-ins and sign-ups count toward the per-address limit', async () => {
    const limited = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '4' } });
    try {
      const from = (ip: string, url: string, payload: string) =>
        limited.app.inject({ method: 'POST', url, remoteAddress: ip, headers: { 'content-type': 'application/json' }, payload });
      expect((await from('10.0.0.7', '/api/auth/login', '{"email": ')).statusCode).toBe(400);
      expect((await from('10.0.0.7', '/api/auth/login', '{"email":"a@example.com","password":1}')).statusCode).toBe(422);
      expect((await from('10.0.0.7', '/api/auth/signup', '{"email":"not an email"}')).statusCode).toBe(422);
      expect((await from('10.0.0.7', '/api/auth/signup', JSON.stringify({ email: 'b@example.com', password: 'x'.repeat(1_100_000) }))).statusCode).toBe(413);
      const blocked = await from('10.0.0.7', '/api/auth/login', '{"email":"a@example.com","password":"long enough"}');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().details.code).toBe('rate_limit_exceeded');
      // A malformed attempt past the limit is refused by the limit, before its body is read.
      expect((await from('10.0.0.7', '/api/auth/signup', '{')).statusCode).toBe(429);
      expect((await from('10.0.0.8', '/api/auth/login', '{"email":"a@example.com","password":"long enough"}')).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});
