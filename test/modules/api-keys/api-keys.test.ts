// API key management (session only): format, storage, expiry choices, scopes, the limit of
// 25 active keys, listing and revocation.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sha256Hex } from '../../../src/lib/crypto.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createKey, type SignedUpUser, signIn, signUp, withKey } from '../../helpers/users.js';

const DAY = 86_400_000;
let t: TestApp;
let admin: { authorization: string };
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN: 'admin-token-for-tests-0123456789' } });
  admin = { authorization: 'Bearer admin-token-for-tests-0123456789' };
});
afterAll(() => t.close());

const create = (user: SignedUpUser, payload: object) => t.app.inject({ method: 'POST', url: '/api/api-keys', headers: user.auth, payload });
const list = async (user: SignedUpUser) => (await t.app.inject({ url: '/api/api-keys', headers: user.auth })).json().items;

describe('POST /api/api-keys', () => {
  test('returns the whole key once: svc_ + 48 lowercase hex; only its SHA-256 is stored', async () => {
    const user = await signUp(t.app);
    const res = await create(user, { name: 'ci' });
    expect(res.statusCode).toBe(201);
    const { key, api_key } = res.json();
    expect(key).toMatch(/^svc_[0-9a-f]{48}$/);
    expect(api_key).toMatchObject({ name: 'ci', prefix: key.slice(0, 12), state: 'Active', scopes: [], last_used_at: null, revoked_at: null });
    const row = await t.db.kysely.selectFrom('api_keys').selectAll().where('id', '=', api_key.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256Hex(key));
    expect(JSON.stringify(row)).not.toContain(key.slice(12));
    // The listing never shows it again.
    expect(JSON.stringify(await list(user))).not.toContain(key.slice(12));
  });

  test('two keys are never alike', async () => {
    const user = await signUp(t.app);
    const a = await createKey(t.app, user);
    const b = await createKey(t.app, user);
    expect(a.key).not.toBe(b.key);
  });

  test.each([
    [undefined, 90],
    ['30d', 30],
    ['90d', 90],
    ['1y', 365],
  ])('expires_in %s expires after %i days', async (expiresIn, days) => {
    const user = await signUp(t.app);
    const res = await create(user, { name: 'k', ...(expiresIn ? { expires_in: expiresIn } : {}) });
    expect(Date.parse(res.json().api_key.expires_at)).toBe(t.clock.now() + days * DAY);
  });

  test('expires_in never gives a key without expiry', async () => {
    const user = await signUp(t.app);
    const res = await create(user, { name: 'k', expires_in: 'never' });
    expect(res.json().api_key.expires_at).toBeNull();
  });

  test('keeps the chosen scopes', async () => {
    const user = await signUp(t.app);
    const res = await create(user, { name: 'k', scopes: ['runs:read', 'macros:run', 'runs:read'] });
    expect(res.json().api_key.scopes).toEqual(['runs:read', 'macros:run']);
  });

  test.each([
    [{ name: 'k', scopes: ['admin'] }, 'body.scopes.0'],
    [{ name: 'k', expires_in: '7d' }, 'body.expires_in'],
    [{ name: '' }, 'body.name'],
    [{ name: 'x'.repeat(101) }, 'body.name'],
    [{}, 'body.name'],
    [{ name: 'k', scopes: 'runs:read' }, 'body.scopes'],
  ])('%j answers 422 naming %s and creates nothing', async (payload, path) => {
    const user = await signUp(t.app);
    const res = await create(user, payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().details.code).toBe('validation_failed');
    expect(res.json().details.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(await list(user)).toEqual([]);
  });

  test('needs an active plan or trial (402); listing and revoking do not', async () => {
    const user = await signUp(t.app);
    const { id } = await createKey(t.app, user);
    await t.app.inject({ method: 'PUT', url: `/admin/users/${user.id}/subscription`, headers: admin, payload: { status: 'inactive' } });
    const res = await create(user, { name: 'k' });
    expect(res.statusCode).toBe(402);
    expect(res.json().details.code).toBe('subscription_required');
    expect((await t.app.inject({ url: '/api/api-keys', headers: user.auth })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${id}`, headers: user.auth })).statusCode).toBe(200);
  });

  test('a trial that has ended cannot create keys', async () => {
    const user = await signUp(t.app);
    t.clock.advance(14 * DAY);
    expect((await create(user, { name: 'k' })).statusCode).toBe(402);
    t.clock.advance(-14 * DAY);
  });
});

describe('the limit of 25 active keys', () => {
  test('the 26th answers 422 key_limit_reached with the contract message; revoked and expired keys free slots', async () => {
    const user = await signUp(t.app);
    await t.app.inject({ method: 'PUT', url: `/admin/users/${user.id}/subscription`, headers: admin, payload: { status: 'active', plan: 'pro' } });
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) ids.push((await createKey(t.app, user, { name: `k${i}`, expires_in: i === 0 ? '30d' : '1y' })).id);
    const refused = await create(user, { name: 'one too many' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().details).toMatchObject({ code: 'key_limit_reached', limit: 25 });
    expect(refused.json().message).toMatch(/25/);
    expect(refused.json().message).toMatch(/[Rr]evoke/);
    expect(await list(user)).toHaveLength(25);

    await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${ids[1]}`, headers: user.auth });
    expect((await create(user, { name: 'after revoke' })).statusCode).toBe(201);
    expect((await create(user, { name: 'full again' })).statusCode).toBe(422);

    t.clock.advance(30 * DAY); // ids[0] expires (and so does the 30-day session)
    expect((await create(await signIn(t.app, user), { name: 'after expiry' })).statusCode).toBe(201);
    t.clock.advance(-30 * DAY);
  });

  test('concurrent creates cannot exceed 25', async () => {
    const user = await signUp(t.app);
    const results = await Promise.all(Array.from({ length: 35 }, (_, i) => create(user, { name: `race ${i}` })));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(25);
    expect(statuses.filter((s) => s === 422)).toHaveLength(10);
    expect((await list(user)).filter((k: { state: string }) => k.state === 'Active')).toHaveLength(25);
  });
});

describe('GET /api/api-keys', () => {
  test('lists every key newest first, in every state, and only the caller\'s', async () => {
    const user = await signUp(t.app);
    const other = await signUp(t.app);
    await createKey(t.app, other);
    const expiring = await createKey(t.app, user, { name: 'old', expires_in: '30d' });
    const revoked = await createKey(t.app, user, { name: 'revoked' });
    const active = await createKey(t.app, user, { name: 'active', expires_in: 'never' });
    await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${revoked.id}`, headers: user.auth });
    t.clock.advance(31 * DAY);
    const items = await list(await signIn(t.app, user));
    t.clock.advance(-31 * DAY);
    expect(items.map((k: { id: number }) => k.id)).toEqual([active.id, revoked.id, expiring.id]);
    expect(items.map((k: { state: string }) => k.state)).toEqual(['Active', 'Revoked', 'Expired']);
    expect(Object.keys(items[0]).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at', 'scopes', 'state']);
  });

  test('last_used_at shows the last request that passed every check', async () => {
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user);
    expect((await list(user))[0].last_used_at).toBeNull();
    await t.app.inject({ url: '/api/whoami', headers: withKey(key) });
    expect((await list(user))[0].last_used_at).toBe(new Date(t.clock.now()).toISOString());
  });
});

describe('DELETE /api/api-keys/{id}', () => {
  test('revokes at once; the next request with the key gets 401; revoking again answers the same record', async () => {
    const user = await signUp(t.app);
    const { key, id } = await createKey(t.app, user);
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(200);
    const first = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${id}`, headers: user.auth });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id, state: 'Revoked', revoked_at: new Date(t.clock.now()).toISOString() });
    const after = await t.app.inject({ url: '/api/whoami', headers: withKey(key) });
    expect(after.statusCode).toBe(401);
    expect(after.json().details.code).toBe('invalid_api_key');
    t.clock.advance(5000);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${id}`, headers: user.auth });
    t.clock.advance(-5000);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
  });

  test("another account's key answers 404 and stays active", async () => {
    const owner = await signUp(t.app);
    const intruder = await signUp(t.app);
    const { key, id } = await createKey(t.app, owner);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${id}`, headers: intruder.auth });
    expect(res.statusCode).toBe(404);
    expect(res.json().details.code).toBe('not_found');
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(200);
  });

  test('an unknown id answers 404, a non-numeric one 422', async () => {
    const user = await signUp(t.app);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/api-keys/999999', headers: user.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/api-keys/abc', headers: user.auth })).statusCode).toBe(422);
  });
});

describe('key management never accepts a key', () => {
  test('a valid key on POST /api/api-keys answers 401 missing_credentials and creates nothing', async () => {
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user);
    const res = await t.app.inject({ method: 'POST', url: '/api/api-keys', headers: withKey(key), payload: { name: 'escalate' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().details.code).toBe('missing_credentials');
    expect(await list(user)).toHaveLength(1);
  });
});
