// The operator's admin API and its CLI: absent without ADMIN_TOKEN, bearer-guarded with it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';

const TOKEN = 'admin-token-for-tests-0123456789';
const admin = { authorization: `Bearer ${TOKEN}` };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN: TOKEN } });
});
afterAll(() => t.close());

describe('without ADMIN_TOKEN', () => {
  test('every /admin/ route answers 404', async () => {
    const plain = await createTestApp();
    try {
      for (const [method, url] of [['GET', '/admin/users'], ['PUT', '/admin/users/1/subscription']] as const) {
        const res = await plain.app.inject({ method, url, headers: admin, payload: method === 'PUT' ? { status: 'active' } : undefined });
        expect(res.statusCode).toBe(404);
        expect(res.json().details.code).toBe('not_found');
      }
    } finally {
      await plain.close();
    }
  });
});

describe('the admin guard', () => {
  test.each([{}, { authorization: 'Bearer wrong-token-wrong-token' }, { authorization: TOKEN }])('%j answers 401', async (headers) => {
    const res = await t.app.inject({ url: '/admin/users', headers });
    expect(res.statusCode).toBe(401);
  });

  test('session traffic is not admin traffic', async () => {
    const user = await signUp(t.app);
    expect((await t.app.inject({ url: '/admin/users', headers: user.auth })).statusCode).toBe(401);
  });
});

describe('GET /admin/users', () => {
  test('finds a user by exact email, case-insensitively', async () => {
    const user = await signUp(t.app, 'findme@example.com');
    const res = await t.app.inject({ url: '/admin/users?email=FindMe@example.com', headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([expect.objectContaining({ id: user.id, email: 'findme@example.com' })]);
    const none = await t.app.inject({ url: '/admin/users?email=findme@example', headers: admin });
    expect(none.json().items).toEqual([]);
  });
});

describe('PUT /admin/users/{id}/subscription', () => {
  test('sets the state; key traffic sees it on the next request', async () => {
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/admin/users/${user.id}/subscription`,
      headers: admin,
      payload: { status: 'active', plan: 'pro', current_period_end: '2027-01-01T00:00:00Z' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'active', plan: 'pro', current_period_end: '2027-01-01T00:00:00.000Z' });
    expect((await t.app.inject({ url: '/api/billing/subscription', headers: user.auth })).json().plan).toBe('pro');
    await t.app.inject({ method: 'PUT', url: `/admin/users/${user.id}/subscription`, headers: admin, payload: { status: 'inactive' } });
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(402);
  });

  test.each([{}, { status: 'gold' }, { trial_ends_at: 'tomorrow' }, { plan: 5 }])('%j answers 422', async (payload) => {
    const user = await signUp(t.app);
    const res = await t.app.inject({ method: 'PUT', url: `/admin/users/${user.id}/subscription`, headers: admin, payload });
    expect(res.statusCode).toBe(422);
    expect((await t.app.inject({ url: '/api/billing/subscription', headers: user.auth })).json().status).toBe('trialing');
  });

  test('an unknown user answers 404', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/admin/users/999999/subscription', headers: admin, payload: { status: 'active' } });
    expect(res.statusCode).toBe(404);
  });
});

describe('npm run svc -- admin …', () => {
  const run = promisify(execFile);
  test('lists users and sets a subscription by calling the admin API of a running server', async () => {
    const user = await signUp(t.app, 'cli-user@example.com');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const env = { ...process.env, BASE_URL: address, ADMIN_TOKEN: TOKEN, DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: '' };
    const users = await run('node', ['dist/main.js', 'admin', 'users', '--email', 'cli-user@example.com'], { env });
    expect(JSON.parse(users.stdout).items[0].id).toBe(user.id);
    const sub = await run('node', ['dist/main.js', 'admin', 'subscription', String(user.id), '--status', 'active', '--plan', 'team'], { env });
    expect(JSON.parse(sub.stdout)).toMatchObject({ status: 'active', plan: 'team' });
    const credits = await run('node', ['dist/main.js', 'admin', 'credits', String(user.id), '250'], { env });
    expect(JSON.parse(credits.stdout)).toMatchObject({ limit: 250, used: 0 });
    const failed = await run('node', ['dist/main.js', 'admin', 'users'], { env: { ...env, ADMIN_TOKEN: 'wrong-token-wrong-token' } }).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toContain('401');
  }, 90_000);
});
