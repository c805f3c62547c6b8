// Proxy usage through the routes: recording samples and the reporting windows.
import { describe, expect, test } from 'vitest';
import { createDevice, createGroup } from '../../helpers/resources.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';
import { useProxiesHarness, t, user, key, call, ok, addProxy } from './harness.js';

useProxiesHarness();

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
    expect(today.days).toEqual([{ date: '2026-03-04', bytes_up: 17, bytes_down: 170, bytes_total: 187 }]);
    const week = await report('week');
    expect(week).toMatchObject({ since: '2026-03-02T00:00:00.000Z', bytes_up: 19 });
    // Per UTC day, oldest first, days without samples left out.
    expect(week.days.map((d: { date: string; bytes_up: number }) => [d.date, d.bytes_up])).toEqual([['2026-03-02', 2], ['2026-03-04', 17]]);
    expect(await report('month')).toMatchObject({ since: '2026-03-01T00:00:00.000Z', bytes_up: 23 });
    const all = await report('all');
    expect(all).toMatchObject({ since: null, bytes_up: 31, bytes_down: 310 });
    expect(all.days.map((d: { date: string }) => d.date)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02', '2026-03-04']);
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
