// Proxy records through the routes: create, read, update, delete, and managed proxies (read-only to their users).
import { describe, expect, test } from 'vitest';
import { createDevice } from '../../helpers/resources.js';
import { createKey, signUp } from '../../helpers/users.js';
import { useProxiesHarness, ADMIN, t, user, call, ok, addProxy } from './harness.js';

useProxiesHarness();

describe('proxy records', () => {
  test('create: defaults, password never returned, targeting only for gateways, port bounds', async () => {
    const plain = await addProxy({ host: 'Proxy.Example.com', port: 8080, username: 'u', password: 'secret-pw', target_countries: ['us'] });
    expect(plain).toMatchObject({ mode: 'byop', scheme: 'http', host: 'proxy.example.com', port: 8080, username: 'u', status: 'unchecked', session_type: 'sticky' });
    expect(plain.targeting).toBeUndefined();
    expect(JSON.stringify(plain)).not.toContain('secret-pw');
    const gw = await addProxy({ host: 'gw.example.com', port: 22225, scheme: 'https', gateway: 'brightdata', username: 'brd-customer-1-zone-z', password: 'x', target_countries: ['us'], target_city: 'New York', exclude_asn: [7922] });
    expect(gw.targeting).toEqual({ countries: ['US'], city: 'New York', exclude_asn: [7922] });
    // null means a plain proxy (decisions.md §6): targeting is ignored, as when gateway is left out.
    const nullGateway = await addProxy({ host: 'plain.example.com', port: 3128, gateway: null, target_countries: ['us'] });
    expect(nullGateway.gateway).toBeUndefined();
    expect(nullGateway.targeting).toBeUndefined();
    for (const port of [0, 65536, 'x']) expect((await call('POST', '/api/proxy', { host: 'a.example.com', port })).statusCode).toBe(422);
    expect((await call('POST', '/api/proxy', { host: 'a.example.com', port: 1, scheme: 'ftp' })).statusCode).toBe(422);
    expect((await call('POST', '/api/proxy', { host: 'bad host!', port: 1 })).statusCode).toBe(422);
    const v6 = await addProxy({ host: '[2001:DB8::1]', port: 3128 });
    expect(v6.host).toBe('2001:db8::1');
    const stored = await t.db.kysely.selectFrom('proxies').select('password_enc').where('id', '=', plain.id).executeTakeFirstOrThrow();
    expect(stored.password_enc).not.toContain('secret-pw');
  });

  test('list filters by mode and status and pages; read, update (targeting replaced whole), delete', async () => {
    const u = await signUp(t.app);
    const k = (await createKey(t.app, u)).key;
    const a = await addProxy({ host: 'a.example.com', port: 1, gateway: 'oxylabs', target_countries: ['DE'], target_city: 'Berlin' }, k);
    await addProxy({ host: 'b.example.com', port: 2 }, k);
    await t.db.kysely.updateTable('proxies').set({ status: 'live' }).where('id', '=', a.id).execute();
    expect((await ok('GET', '/api/proxy?status=live', undefined, 200, k)).rows.map((r: { id: number }) => r.id)).toEqual([a.id]);
    expect((await ok('GET', '/api/proxy?mode=managed', undefined, 200, k)).total_rows).toBe(0);
    expect(await ok('GET', '/api/proxy?page_size=1&page=2', undefined, 200, k)).toMatchObject({ total_rows: 2, total_pages: 2, page: 2 });
    expect((await call('GET', '/api/proxy?status=bogus', undefined, k)).statusCode).toBe(422);
    const updated = await ok('PUT', `/api/proxy/${a.id}`, { label: 'DE pool', targeting: { countries: ['FR'] } }, 200, k);
    expect(updated).toMatchObject({ label: 'DE pool', targeting: { countries: ['FR'] } });
    expect((await ok('GET', `/api/proxy/${a.id}`, undefined, 200, k)).targeting).toEqual({ countries: ['FR'] });
    expect((await call('PUT', `/api/proxy/${a.id}`, { host: 'x' }, k)).statusCode).toBe(422);
    expect((await call('DELETE', `/api/proxy/${a.id}`, undefined, k)).statusCode).toBe(204);
    expect((await call('GET', `/api/proxy/${a.id}`, undefined, k)).statusCode).toBe(404);
  });

  test("another account's proxy answers 404 everywhere, and a scoped key answers 403", async () => {
    const other = await signUp(t.app);
    const theirs = await addProxy({ host: 'theirs.example.com', port: 1 }, (await createKey(t.app, other)).key);
    for (const [method, url] of [['GET', `/api/proxy/${theirs.id}`], ['PUT', `/api/proxy/${theirs.id}`], ['DELETE', `/api/proxy/${theirs.id}`], ['POST', `/api/proxy/${theirs.id}/validate`]] as const) {
      const res = await call(method, url, method === 'PUT' ? { label: 'x' } : undefined);
      expect([url, method, res.statusCode]).toEqual([url, method, 404]);
    }
    const scoped = (await createKey(t.app, user, { scopes: ['devices:control'] })).key;
    const res = await call('GET', '/api/proxy', undefined, scoped);
    expect([res.statusCode, res.json().details.code]).toEqual([403, 'insufficient_scope']);
  });
});

describe('managed proxies', () => {
  const admin = { authorization: `Bearer ${ADMIN}` };
  test('granted by the operator; the user lists, reads and assigns them but cannot change or delete them', async () => {
    const u = await signUp(t.app);
    const k = (await createKey(t.app, u)).key;
    const granted = await t.app.inject({ method: 'POST', url: `/admin/users/${u.id}/proxies`, headers: admin, payload: { host: 'managed.example.com', port: 9000, username: 'op', password: 'op-secret', gateway: null } });
    expect(granted.statusCode, granted.body).toBe(201);
    const proxy = granted.json();
    expect(proxy.mode).toBe('managed');
    expect((await ok('GET', '/api/proxy?mode=managed', undefined, 200, k)).rows.map((r: { id: number }) => r.id)).toEqual([proxy.id]);
    expect((await ok('GET', `/api/proxy/${proxy.id}`, undefined, 200, k)).host).toBe('managed.example.com');
    for (const res of [await call('PUT', `/api/proxy/${proxy.id}`, { label: 'mine' }, k), await call('DELETE', `/api/proxy/${proxy.id}`, undefined, k)]) {
      expect([res.statusCode, res.json().details.code]).toEqual([403, 'managed_proxy']);
      expect(res.json().message).toMatch(/provided by the operator/);
    }
    expect(await ok('GET', `/api/proxy/${proxy.id}`, undefined, 200, k)).toMatchObject({ mode: 'managed', host: 'managed.example.com' });
    const device = await createDevice(t.app, u);
    await ok('POST', '/api/proxy/assignments', { proxy_id: proxy.id, emulator_device_id: device.id }, 201, k);
    expect((await t.app.inject({ method: 'POST', url: '/admin/users/999999/proxies', headers: admin, payload: { host: 'x.example.com', port: 1 } })).statusCode).toBe(404);
    const own = await addProxy({ host: 'own.example.com', port: 1 }, k);
    expect((await t.app.inject({ method: 'DELETE', url: `/admin/proxies/${own.id}`, headers: admin })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/admin/proxies/${proxy.id}`, headers: admin })).statusCode).toBe(204);
    expect(await ok('GET', '/api/proxy/assignments', undefined, 200, k)).toEqual({ items: [], total: 0 });
    expect((await t.app.inject({ method: 'POST', url: `/admin/users/${u.id}/proxies`, payload: { host: 'x.example.com', port: 1 } })).statusCode).toBe(401);
  });
});
