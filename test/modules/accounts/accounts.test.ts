// Sign-up, sign-in, sessions and the subscription of app-api.md.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { signUp } from '../../helpers/users.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/auth/signup', () => {
  test('creates the account, a 30-day session, a 14-day trial and the session cookie', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'Ada@Example.com', password: 'long enough', name: 'Ada' } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toMatchObject({ email: 'ada@example.com', name: 'Ada' });
    expect(body.session.token).toMatch(/^sess_[0-9a-f]{48}$/);
    const now = t.clock.now();
    expect(Date.parse(body.session.expires_at)).toBe(now + 30 * 86_400_000);
    expect(body.subscription).toEqual({ status: 'trialing', plan: null, trial_ends_at: new Date(now + 14 * 86_400_000).toISOString(), current_period_end: null });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`session=${body.session.token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // BASE_URL is http in tests
  });

  test('stores a memory-hard password hash and only a hash of the session', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'hash@example.com', password: 'hunter2hunter2' } });
    const { user, session } = res.json();
    const row = await t.db.kysely.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('hunter2');
    const sessions = await t.db.kysely.selectFrom('sessions').select('token_hash').where('user_id', '=', user.id).execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0].token_hash).not.toContain(session.token);
    expect(sessions[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a taken email answers 409 email_taken, whatever its case', async () => {
    await signUp(t.app, 'taken@example.com');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'TAKEN@example.com', password: 'long enough' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().details.code).toBe('email_taken');
  });

  test.each([
    [{ email: 'a@example.com', password: 'short' }, 'body.password'],
    [{ email: 'not-an-email', password: 'long enough' }, 'body.email'],
    [{ password: 'long enough' }, 'body.email'],
    [{ email: 'b@example.com', password: 12345678 }, 'body.password'],
    [{ email: 'c@example.com', password: 'long enough', admin: true }, 'body.admin'],
  ])('invalid input %j answers 422 naming %s, and creates nothing', async (payload, path) => {
    const before = await t.db.kysely.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.code).toBe('validation_failed');
    expect(res.json().details.errors.map((e: { path: string }) => e.path)).toContain(path);
    const after = await t.db.kysely.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('POST /api/auth/login', () => {
  test('signs in with the right password', async () => {
    const user = await signUp(t.app, 'login@example.com');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'LOGIN@example.com', password: 'correct horse battery' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.id).toBe(user.id);
    expect(res.json().session.token).not.toBe(user.token);
    expect(res.json().subscription.status).toBe('trialing');
  });

  test('a wrong password and an unknown email get the same 401 invalid_credentials', async () => {
    await signUp(t.app, 'victim@example.com');
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'victim@example.com', password: 'wrong password' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@example.com', password: 'wrong password' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().details.code).toBe('invalid_credentials');
  });
});

describe('sessions', () => {
  test('the session works as a bearer token and as the cookie', async () => {
    const user = await signUp(t.app);
    const bearer = await t.app.inject({ url: '/api/auth/me', headers: user.auth });
    const cookie = await t.app.inject({ url: '/api/auth/me', headers: { cookie: `session=${user.token}` } });
    expect(bearer.statusCode).toBe(200);
    expect(cookie.statusCode).toBe(200);
    expect(bearer.json().user.email).toBe(user.email);
    expect(cookie.json()).toEqual(bearer.json());
  });

  test('logout stops that session at once and clears the cookie', async () => {
    const user = await signUp(t.app);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.auth });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/session=;.*Max-Age=0/);
    const after = await t.app.inject({ url: '/api/auth/me', headers: user.auth });
    expect(after.statusCode).toBe(401);
    expect(after.json().details.code).toBe('missing_credentials');
  });

  test('a session expires after 30 days', async () => {
    const user = await signUp(t.app);
    t.clock.advance(30 * 86_400_000 - 1000);
    expect((await t.app.inject({ url: '/api/auth/me', headers: user.auth })).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await t.app.inject({ url: '/api/auth/me', headers: user.auth })).statusCode).toBe(401);
  });

  test('no session, a malformed one or an unknown one answer 401 missing_credentials', async () => {
    for (const headers of [{}, { authorization: 'Bearer nonsense' }, { authorization: `Bearer sess_${'0'.repeat(48)}` }, { cookie: 'session=sess_abc' }]) {
      const res = await t.app.inject({ url: '/api/auth/me', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().details.code).toBe('missing_credentials');
    }
  });
});

describe('GET /api/billing/subscription', () => {
  test('answers the trial of a new account', async () => {
    const user = await signUp(t.app);
    const res = await t.app.inject({ url: '/api/billing/subscription', headers: user.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('trialing');
    expect(Date.parse(res.json().trial_ends_at)).toBe(t.clock.now() + 14 * 86_400_000);
  });
});

describe('sign-in rate limit per client address', () => {
  test('sign-up and sign-in attempts beyond the limit get 429 with Retry-After, until the window passes', async () => {
    const limited = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '3' } });
    try {
      const attempt = (ip: string) =>
        limited.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email: 'x@example.com', password: 'wrong password' } });
      for (let i = 0; i < 3; i++) expect((await attempt('10.0.0.1')).statusCode).toBe(401);
      const blocked = await attempt('10.0.0.1');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().details.code).toBe('rate_limit_exceeded');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      const signupBlocked = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        remoteAddress: '10.0.0.1',
        payload: { email: 'new@example.com', password: 'long enough' },
      });
      expect(signupBlocked.statusCode).toBe(429);
      // Another address is not affected.
      expect((await attempt('10.0.0.2')).statusCode).toBe(401);
      limited.clock.advance(60_000);
      expect((await attempt('10.0.0.1')).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});
