// Proxies through the routes: CRUD, managed proxies, import edge cases, assignments,
// connection info with masking and the reveal audit, usage windows, ownership and scope.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createDevice, createGroup } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';

const ADMIN = 'admin-token-for-tests-0123456789';
let t: TestApp;
let user: SignedUpUser;
let key: string;
let keyId: number;

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN: ADMIN } });
  user = await signUp(t.app);
  ({ key, id: keyId } = await createKey(t.app, user));
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: object, k = key) => t.app.inject({ method, url, headers: withKey(k), ...(payload ? { payload } : {}) });
async function ok(method: Method, url: string, payload?: object, status = 200, k = key) {
  const res = await call(method, url, payload, k);
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}
const addProxy = (body: object, k = key) => ok('POST', '/api/proxy', body, 201, k);

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

describe('import', () => {
  test('every line is created or reported with its line, masked raw text and reason', async () => {
    const u = await signUp(t.app);
    const k = (await createKey(t.app, u)).key;
    await addProxy({ host: 'stored.example.com', port: 80, username: 'x', password: 'y' }, k);
    const text = [
      '# my proxies',
      '',
      '1.2.3.4:8080',
      'host.example.com:3128:alice:pa:ss@word',
      'socks5h://bob:p@ss:w@rd@socks.example.com:1080',
      'socks://carol:c@[2001:db8::2]:1080',
      '[2001:db8::1]:8080:dave:d:pw',
      '   ',
      '1.2.3.4:8080',
      'stored.example.com:80:x:other-secret',
      'ftp://user:topsecret@h.example.com:21',
      'h.example.com:99999:eve:evepass',
      'h.example.com:80:eve',
      'h.example.com',
      '2001:db8::3:8080',
      'https://frank:fr@nk@h2.example.com:443/',
    ].join('\n');
    const res = await ok('POST', '/api/proxy/import', { proxies: text }, 200, k);
    expect(res.created_count).toBe(6);
    expect(res.created.map((p: { scheme: string; host: string; port: number; username?: string }) => [p.scheme, p.host, p.port, p.username])).toEqual([
      ['http', '1.2.3.4', 8080, undefined],
      ['http', 'host.example.com', 3128, 'alice'],
      ['socks5', 'socks.example.com', 1080, 'bob'],
      ['socks5', '2001:db8::2', 1080, 'carol'],
      ['http', '2001:db8::1', 8080, 'dave'],
      ['https', 'h2.example.com', 443, 'frank'],
    ]);
    expect(res.errors.map((e: { line: number }) => e.line)).toEqual([9, 10, 11, 12, 13, 14, 15]);
    expect(res.errors[0].reason).toMatch(/duplicates line 3/);
    expect(res.errors[1].reason).toMatch(/stored proxy/);
    expect(res.errors[2]).toMatchObject({ raw: 'ftp://user:********@h.example.com:21' });
    expect(res.errors[3]).toMatchObject({ raw: 'h.example.com:99999:eve:********' });
    expect(res.errors[6].reason).toMatch(/IPv6.*brackets/);
    const body = JSON.stringify(res);
    for (const secret of ['pa:ss@word', 'p@ss:w@rd', 'other-secret', 'topsecret', 'evepass', 'fr@nk', 'd:pw']) expect(body).not.toContain(secret);
    // The passwords kept every ':' and '@': the connection info reveals them as imported.
    const device = await createDevice(t.app, u);
    const alice = res.created[1];
    const assignment = await ok('POST', '/api/proxy/assignments', { proxy_id: alice.id, emulator_device_id: device.id }, 201, k);
    expect((await ok('GET', `/api/proxy/assignments/${assignment.id}/connection-info?include_secrets=true`, undefined, 200, k)).password).toBe('pa:ss@word');
    const bob = res.created[2];
    await ok('POST', '/api/proxy/assignments', { proxy_id: bob.id, emulator_device_id: device.id }, 201, k);
    const [current] = (await ok('GET', `/api/proxy/devices/${device.id}`, undefined, 200, k)).items;
    expect((await ok('GET', `/api/proxy/assignments/${current.id}/connection-info?include_secrets=true`, undefined, 200, k)).password).toBe('p@ss:w@rd');
  });

  test('more than 10,000 lines is refused whole; 10,000 is accepted', async () => {
    const u = await signUp(t.app);
    const k = (await createKey(t.app, u)).key;
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:8080`).join('\n');
    const refused = await call('POST', '/api/proxy/import', { proxies: lines(10_001) }, k);
    expect(refused.statusCode).toBe(422);
    expect((await ok('GET', '/api/proxy', undefined, 200, k)).total_rows).toBe(0);
    const accepted = await ok('POST', '/api/proxy/import', { proxies: lines(10_000) }, 200, k);
    expect([accepted.created_count, accepted.error_count]).toEqual([10_000, 0]);
  }, 60_000);

  test('bad bodies are 422 and store nothing', async () => {
    expect((await call('POST', '/api/proxy/import', { proxies: 5 })).statusCode).toBe(422);
    expect((await call('POST', '/api/proxy/import', {})).statusCode).toBe(422);
  });
});

describe('assignments and connection info', () => {
  test('one active per device; sticky gets an 8-character session, rotating none; delete answers the rest', async () => {
    const u = await signUp(t.app);
    const k = (await createKey(t.app, u)).key;
    const p1 = await addProxy({ host: 'p1.example.com', port: 1 }, k);
    const p2 = await addProxy({ host: 'p2.example.com', port: 2 }, k);
    const d1 = await createDevice(t.app, u, { name: 'd1', port: 5555 });
    const d2 = await createDevice(t.app, u, { name: 'd2', port: 5556 });
    const first = await ok('POST', '/api/proxy/assignments', { proxy_id: p1.id, emulator_device_id: d1.id }, 201, k);
    expect(first).toMatchObject({ proxy_id: p1.id, emulator_device_id: d1.id, device_name: 'd1', device_port: 5555, session_type: 'sticky', active: true, proxy: { id: p1.id } });
    expect(first.session_id).toMatch(/^[a-z0-9]{8}$/);
    const second = await ok('POST', '/api/proxy/assignments', { proxy_id: p2.id, emulator_device_id: d1.id, session_type: 'rotating' }, 201, k);
    expect(second.session_id).toBeUndefined();
    const other = await ok('POST', '/api/proxy/assignments', { proxy_id: p1.id, emulator_device_id: d2.id }, 201, k);
    const list = await ok('GET', '/api/proxy/assignments', undefined, 200, k);
    expect(list.items.map((a: { id: number }) => a.id)).toEqual([second.id, other.id]);
    expect(list.total).toBe(2);
    expect((await ok('GET', `/api/proxy/devices/${d1.id}`, undefined, 200, k)).items.map((a: { id: number }) => a.id)).toEqual([second.id]);
    const remaining = await ok('DELETE', `/api/proxy/assignments/${second.id}`, undefined, 200, k);
    expect(remaining).toMatchObject({ total: 1, items: [{ id: other.id }] });
    expect(await ok('GET', `/api/proxy/devices/${d1.id}`, undefined, 200, k)).toEqual({ items: [], total: 0 });
    expect((await call('DELETE', `/api/proxy/assignments/${second.id}`, undefined, k)).statusCode).toBe(404);
    expect((await call('GET', `/api/proxy/assignments/${first.id}/connection-info`, undefined, k)).statusCode).toBe(404);
    // Deleting a proxy ends its assignments.
    expect((await call('DELETE', `/api/proxy/${p1.id}`, undefined, k)).statusCode).toBe(204);
    expect(await ok('GET', '/api/proxy/assignments', undefined, 200, k)).toEqual({ items: [], total: 0 });
  });

  test("another account's proxies, devices and assignments answer 404; bad input changes nothing", async () => {
    const other = await signUp(t.app);
    const ok2 = (await createKey(t.app, other)).key;
    const theirProxy = await addProxy({ host: 'their.example.com', port: 1 }, ok2);
    const theirDevice = await createDevice(t.app, other);
    const theirAssignment = await ok('POST', '/api/proxy/assignments', { proxy_id: theirProxy.id, emulator_device_id: theirDevice.id }, 201, ok2);
    const mine = await addProxy({ host: 'mine.example.com', port: 1 });
    const myDevice = await createDevice(t.app, user);
    expect((await call('POST', '/api/proxy/assignments', { proxy_id: theirProxy.id, emulator_device_id: myDevice.id })).statusCode).toBe(404);
    expect((await call('POST', '/api/proxy/assignments', { proxy_id: mine.id, emulator_device_id: theirDevice.id })).statusCode).toBe(404);
    expect((await call('GET', `/api/proxy/devices/${theirDevice.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/proxy/assignments/${theirAssignment.id}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/proxy/assignments/${theirAssignment.id}/connection-info?include_secrets=true`)).statusCode).toBe(404);
    expect((await call('POST', '/api/proxy/assignments', { proxy_id: mine.id, emulator_device_id: myDevice.id, session_type: 'forever' })).statusCode).toBe(422);
    expect(await ok('GET', `/api/proxy/devices/${myDevice.id}`)).toEqual({ items: [], total: 0 });
    expect((await ok('GET', '/api/proxy/assignments', undefined, 200, ok2)).total).toBe(1);
  });

  test('masked by default; a reveal returns the password and writes an audit row; the relay recipe', async () => {
    const proxy = await addProxy({ host: 'gw.example.net', port: 7000, gateway: 'decodo', username: 'sp123', password: 'pw:1@x', target_countries: ['US'], target_city: 'New York' });
    const device = await createDevice(t.app, user, { name: 'relay-dev', port: 5560 });
    const assignment = await ok('POST', '/api/proxy/assignments', { proxy_id: proxy.id, emulator_device_id: device.id }, 201);
    const masked = await ok('GET', `/api/proxy/assignments/${assignment.id}/connection-info`);
    expect(masked).toMatchObject({ scheme: 'http', host: 'gw.example.net', port: 7000, password: '********', secrets_revealed: false, session_type: 'sticky', session_id: assignment.session_id });
    expect(masked.username).toBe(`user-sp123-country-us-city-new_york-session-${assignment.session_id}`);
    const port = 20_000 + (assignment.id % 10_000);
    expect(masked.relay).toEqual({
      mode: 'local_relay',
      local: { scheme: 'http', host: '127.0.0.1', port },
      device_steps: [`adb -s 127.0.0.1:5560 reverse tcp:${port} tcp:${port}`, `adb -s 127.0.0.1:5560 shell settings put global http_proxy 127.0.0.1:${port}`],
      teardown: ['adb -s 127.0.0.1:5560 shell settings put global http_proxy :0', `adb -s 127.0.0.1:5560 reverse --remove tcp:${port}`],
      covers: expect.stringContaining('HTTP and HTTPS'),
    });
    expect(await t.db.kysely.selectFrom('proxy_secret_reveals').selectAll().where('assignment_id', '=', assignment.id).execute()).toEqual([]);
    const res = await t.app.inject({ url: `/api/proxy/assignments/${assignment.id}/connection-info?include_secrets=true`, headers: withKey(key), remoteAddress: '203.0.113.9' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ password: 'pw:1@x', secrets_revealed: true });
    const rows = await t.db.kysely.selectFrom('proxy_secret_reveals').selectAll().where('assignment_id', '=', assignment.id).execute();
    expect(rows).toEqual([
      expect.objectContaining({ user_id: user.id, api_key_id: keyId, session_id: null, proxy_id: proxy.id, client_address: '203.0.113.9', created_at: t.clock.now() }),
    ]);
    expect(t.logs.join('\n')).not.toContain('pw:1@x');
    const direct = await addProxy({ host: 'open.example.net', port: 3128 });
    const d2 = await createDevice(t.app, user, { name: 'direct-dev', port: 5561 });
    const a2 = await ok('POST', '/api/proxy/assignments', { proxy_id: direct.id, emulator_device_id: d2.id, session_type: 'rotating' }, 201);
    const info = await ok('GET', `/api/proxy/assignments/${a2.id}/connection-info?include_secrets=true`);
    expect(info.password).toBeUndefined();
    expect(info.relay).toMatchObject({ mode: 'direct', local: { scheme: 'http', host: 'open.example.net', port: 3128 }, device_steps: ['adb -s 127.0.0.1:5561 shell settings put global http_proxy open.example.net:3128'] });
  });
});

describe('usage', () => {
  test('samples are recorded by the application and aggregated per proxy, device and group in UTC windows', async () => {
    const u = await signUp(t.app);
    const k = (await createKey(t.app, u)).key;
    const group = await createGroup(t.app, u, { name: 'Rack' });
    const d1 = await createDevice(t.app, u, { name: 'one', group_id: group.id });
    const d2 = await createDevice(t.app, u, { name: 'two' });
    const p = await addProxy({ host: 'u.example.com', port: 1, label: 'U' }, k);
    // Wednesday 2026-03-04 15:00 UTC.
    t.clock.set(Date.parse('2026-03-04T15:00:00Z'));
    const samples = [
      { proxy_id: p.id, device_id: d1.id, bytes_up: 1, bytes_down: 10, at: '2026-03-04T00:00:00Z' }, // today
      { proxy_id: p.id, device_id: d2.id, bytes_up: 2, bytes_down: 20, at: '2026-03-02T00:00:00Z' }, // Monday: this week
      { proxy_id: p.id, bytes_up: 4, bytes_down: 40, at: '2026-03-01T23:59:59Z' }, // Sunday: this month, last week
      { proxy_id: p.id, device_id: d1.id, bytes_up: 8, bytes_down: 80, at: '2026-02-28T12:00:00Z' }, // last month
      { proxy_id: p.id, device_id: d1.id, bytes_up: 16, bytes_down: 160 }, // now
    ];
    const posted = await t.app.inject({ method: 'POST', url: '/api/proxy/usage', headers: u.auth, payload: { samples } });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toEqual({ accepted: 5 });
    const report = async (period?: string) => ok('GET', `/api/proxy/usage${period ? `?period=${period}` : ''}`, undefined, 200, k);
    const today = await report();
    expect(today).toMatchObject({ period: 'today', since: '2026-03-04T00:00:00.000Z', bytes_up: 17, bytes_down: 170, bytes_total: 187 });
    expect(today.items).toEqual([{ proxy_id: p.id, label: 'U', host: 'u.example.com', bytes_up: 17, bytes_down: 170, bytes_total: 187 }]);
    expect(today.devices).toEqual([{ device_id: d1.id, device_name: 'one', bytes_up: 17, bytes_down: 170, bytes_total: 187 }]);
    expect(today.groups).toEqual([{ group_id: group.id, group_name: 'Rack', bytes_up: 17, bytes_down: 170, bytes_total: 187 }]);
    expect(await report('week')).toMatchObject({ since: '2026-03-02T00:00:00.000Z', bytes_up: 19 });
    expect(await report('month')).toMatchObject({ since: '2026-03-01T00:00:00.000Z', bytes_up: 23 });
    const all = await report('all');
    expect(all).toMatchObject({ since: null, bytes_up: 31, bytes_down: 310 });
    expect(all.devices.map((d: { device_id: number; bytes_up: number }) => [d.device_id, d.bytes_up])).toEqual([[d1.id, 25], [d2.id, 2]]);
    expect((await call('GET', '/api/proxy/usage?period=year', undefined, k)).statusCode).toBe(422);
  });

  test('a sample naming another account\'s proxy or device refuses the whole batch; keys cannot report', async () => {
    const other = await signUp(t.app);
    const theirs = await addProxy({ host: 'usage-theirs.example.com', port: 1 }, (await createKey(t.app, other)).key);
    const mine = await addProxy({ host: 'usage-mine.example.com', port: 1 });
    const theirDevice = await createDevice(t.app, other);
    for (const bad of [{ proxy_id: theirs.id, bytes_up: 1, bytes_down: 1 }, { proxy_id: mine.id, device_id: theirDevice.id, bytes_up: 1, bytes_down: 1 }, { proxy_id: mine.id, bytes_up: -1, bytes_down: 1 }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/proxy/usage', headers: user.auth, payload: { samples: [{ proxy_id: mine.id, bytes_up: 5, bytes_down: 5 }, bad] } });
      expect(res.statusCode, res.body).toBe(422);
    }
    expect((await ok('GET', '/api/proxy/usage?period=all')).bytes_total).toBe(0);
    const withKeyRes = await t.app.inject({ method: 'POST', url: '/api/proxy/usage', headers: withKey(key), payload: { samples: [{ proxy_id: mine.id, bytes_up: 1, bytes_down: 1 }] } });
    expect(withKeyRes.json().details.code).toBe('missing_credentials');
  });
});
