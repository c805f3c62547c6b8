// The menu-map routes with no worker running (explorations stay queued): validation, the
// device hold (409 device_busy for a second exploration, a run and a lease), stop of a queued
// exploration freeing the device, someone else's ids and packages (404), and a key on these
// session-only routes (401).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/index.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createCloudDevice, createDevice } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';

let t: TestApp;
let alice: SignedUpUser;
let bob: SignedUpUser;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signUp(t.app);
  bob = await signUp(t.app);
});
afterAll(() => t.close());

const post = (user: SignedUpUser, payload: unknown) => t.app.inject({ method: 'POST', url: '/api/maps/explorations', headers: user.auth, payload: payload as object });
const count = async (table: 'map_explorations' | 'device_leases') => Number((await t.db.kysely.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('starting an exploration', () => {
  test('202 queued, with the defaults; the device is held: another exploration, a run and a lease answer 409 device_busy', async () => {
    const device = (await createCloudDevice(t.app, alice)).id;
    const res = await post(alice, { device_id: device, package: DEMO_APP_PACKAGE });
    expect(res.statusCode, res.body).toBe(202);
    const exploration = res.json();
    expect(exploration).toMatchObject({ device_id: device, package: DEMO_APP_PACKAGE, state: 'queued', state_message: null, screens_found: 0, transitions_found: 0, max_screens: 50, max_minutes: 10, started_at: null, finished_at: null });
    expect(exploration.do_not_touch).toEqual(['sign out', 'log out', 'delete', 'remove', 'uninstall', 'pay', 'buy']);
    expect((await t.app.inject({ url: `/api/maps/explorations/${exploration.id}`, headers: alice.auth })).json()).toEqual(exploration);

    const again = await post(alice, { device_id: device, package: 'com.android.settings' });
    expect(again.statusCode).toBe(409);
    expect(again.json().details.code).toBe('device_busy');
    const macro = await t.app.inject({ method: 'POST', url: '/api/macros', headers: alice.auth, payload: { name: 'Blocks', kind: 'block', blocks: { version: 1, steps: [{ type: 'wait', ms: 10 }] } } });
    const run = await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${device}/run`, headers: alice.auth, payload: { macro_id: macro.json().id } });
    expect(run.statusCode, run.body).toBe(409);
    expect(run.json().details.code).toBe('device_busy');
    const key = (await createKey(t.app, alice, { scopes: ['devices:control'] })).key;
    await expect(t.app.modules.devices.services.leases.lease({ userId: alice.id, keyId: null }, { device_id: device })).rejects.toMatchObject({ code: 'device_busy' });
    expect(key).toBeTruthy();

    // Stopping the queued exploration ends it at once and frees the device.
    const stopped = await t.app.inject({ method: 'POST', url: `/api/maps/explorations/${exploration.id}/stop`, headers: alice.auth });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toMatchObject({ state: 'stopped', state_message: 'stopped on request', finished_at: expect.any(String) });
    expect((await t.db.kysely.selectFrom('device_leases').select('device_id').where('device_id', '=', device).execute()).length).toBe(0);
    // Stopping again answers it as it is.
    expect((await t.app.inject({ method: 'POST', url: `/api/maps/explorations/${exploration.id}/stop`, headers: alice.auth })).json()).toMatchObject({ state: 'stopped' });
    const next = await post(alice, { device_id: device, package: DEMO_APP_PACKAGE, max_screens: 500, max_minutes: 60, do_not_touch: [' Place  order ', 'checkout'] });
    expect(next.statusCode, next.body).toBe(202);
    expect(next.json()).toMatchObject({ max_screens: 500, max_minutes: 60, do_not_touch: ['Place order', 'checkout'] });
  });

  test('422 validation_failed on bad input, and nothing is created or held', async () => {
    const device = (await createCloudDevice(t.app, alice)).id;
    const before = [await count('map_explorations'), await count('device_leases')];
    const bad = [
      {},
      { device_id: device },
      { package: DEMO_APP_PACKAGE },
      { device_id: 'one', package: DEMO_APP_PACKAGE },
      { device_id: device, package: 'not a package' },
      { device_id: device, package: 'nodots' },
      { device_id: device, package: DEMO_APP_PACKAGE, max_screens: 0 },
      { device_id: device, package: DEMO_APP_PACKAGE, max_screens: 501 },
      { device_id: device, package: DEMO_APP_PACKAGE, max_minutes: 61 },
      { device_id: device, package: DEMO_APP_PACKAGE, max_minutes: 1.5 },
      { device_id: device, package: DEMO_APP_PACKAGE, do_not_touch: 'delete' },
      { device_id: device, package: DEMO_APP_PACKAGE, do_not_touch: [''] },
      { device_id: device, package: DEMO_APP_PACKAGE, do_not_touch: ['   '] },
      { device_id: device, package: DEMO_APP_PACKAGE, do_not_touch: Array.from({ length: 51 }, (_, i) => `word${i}`) },
      { device_id: device, package: DEMO_APP_PACKAGE, extra: true },
    ];
    for (const payload of bad) {
      const res = await post(alice, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().details.code).toBe('validation_failed');
    }
    expect([await count('map_explorations'), await count('device_leases')]).toEqual(before);
    for (const url of ['/api/maps/explorations/abc', '/api/maps/explorations/0', '/api/maps/not%20a%20package']) {
      expect((await t.app.inject({ url, headers: alice.auth })).statusCode, url).toBe(422);
    }
  });

  test("404 for someone else's device, a missing one, and not_a_cloud_device for a local one", async () => {
    const bobs = (await createCloudDevice(t.app, bob)).id;
    const res = await post(alice, { device_id: bobs, package: DEMO_APP_PACKAGE });
    expect(res.statusCode).toBe(404);
    expect(res.json().details.code).toBe('not_found');
    expect((await post(alice, { device_id: 999_999, package: DEMO_APP_PACKAGE })).statusCode).toBe(404);
    const local = (await createDevice(t.app, alice, { name: 'Desk phone', port: 5555 })).id;
    const localRes = await post(alice, { device_id: local, package: DEMO_APP_PACKAGE });
    expect(localRes.statusCode).toBe(404);
    expect(localRes.json().details.code).toBe('not_a_cloud_device');
    // Bob's device is not held by Alice's attempt.
    expect((await post(bob, { device_id: bobs, package: DEMO_APP_PACKAGE })).statusCode).toBe(202);
  });
});

describe("someone else's explorations and maps, and keys", () => {
  test("another account's exploration answers 404 to read and stop, and stays as it was", async () => {
    const device = (await createCloudDevice(t.app, bob)).id;
    const mine = (await post(bob, { device_id: device, package: 'com.android.settings' })).json();
    expect((await t.app.inject({ url: `/api/maps/explorations/${mine.id}`, headers: alice.auth })).statusCode).toBe(404);
    const stop = await t.app.inject({ method: 'POST', url: `/api/maps/explorations/${mine.id}/stop`, headers: alice.auth });
    expect(stop.statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/maps/explorations/${mine.id}`, headers: bob.auth })).json().state).toBe('queued');
  });

  test("maps are per account: another account's package answers 404 to read and delete", async () => {
    await t.db.kysely.insertInto('menu_maps').values({ user_id: bob.id, package: 'com.example.bob', exploration_id: null, screen_count: 0, transition_count: 0, created_at: 1, updated_at: 1 }).execute();
    expect((await t.app.inject({ url: '/api/maps/com.example.bob', headers: bob.auth })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/maps', headers: alice.auth })).json().items.map((m: { package: string }) => m.package)).not.toContain('com.example.bob');
    const read = await t.app.inject({ url: '/api/maps/com.example.bob', headers: alice.auth });
    expect(read.statusCode).toBe(404);
    expect(read.json().details.code).toBe('not_found');
    expect((await t.app.inject({ method: 'DELETE', url: '/api/maps/com.example.bob', headers: alice.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/maps/com.example.bob', headers: bob.auth })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/maps/com.example.bob', headers: bob.auth })).statusCode).toBe(204);
    expect((await t.app.inject({ url: '/api/maps/com.example.bob', headers: bob.auth })).statusCode).toBe(404);
  });

  test('an API key on these session-only routes answers 401, even a full-access one', async () => {
    const key = (await createKey(t.app, alice)).key;
    const device = (await createCloudDevice(t.app, alice)).id;
    const calls = [
      { method: 'POST' as const, url: '/api/maps/explorations', payload: { device_id: device, package: DEMO_APP_PACKAGE } },
      { method: 'GET' as const, url: '/api/maps/explorations/1' },
      { method: 'POST' as const, url: '/api/maps/explorations/1/stop' },
      { method: 'GET' as const, url: '/api/maps' },
      { method: 'GET' as const, url: `/api/maps/${DEMO_APP_PACKAGE}` },
      { method: 'DELETE' as const, url: `/api/maps/${DEMO_APP_PACKAGE}` },
    ];
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: withKey(key) });
      expect(res.statusCode, call.url).toBe(401);
    }
    expect((await t.db.kysely.selectFrom('device_leases').select('device_id').where('device_id', '=', device).execute()).length).toBe(0);
  });
});
