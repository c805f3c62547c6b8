// Proxy assignments to devices and groups, and connection info with masking and the reveal audit.
import { describe, expect, test } from 'vitest';
import { createDevice } from '../../helpers/resources.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';
import { useProxiesHarness, t, user, key, keyId, call, ok, addProxy } from './harness.js';

useProxiesHarness();

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
