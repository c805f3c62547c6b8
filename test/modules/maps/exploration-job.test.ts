// Explorations through the real routes and the real job: the app with its workers (as `serve`
// runs them) explores the demo app completely, and map_get answers before and after through
// the official MCP SDK client (an empty map with a message, then the map; 403-style refusal
// without maps:read). A stop mid-exploration keeps what was learned; a worker that dies
// mid-exploration leaves its lease to lapse, and another worker ends it failed, the old map
// kept and the device freed.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEMO_APP_PACKAGE, SimFaults, SimHost } from '../../../src/modules/devices/index.js';
import { WORKER_LOST as EXPLORATION_WORKER_LOST } from '../../../src/modules/maps/exploration-handler.js';
import { buildMapsModule } from '../../../src/modules/maps/index.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { call, connect, failure, listeningApp } from '../mcp/helpers/client.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';

type App = Awaited<ReturnType<typeof listeningApp>>;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function waitForState(t: App, user: SignedUpUser, id: number, state: RegExp, timeout = 30_000) {
  await expect.poll(async () => (await t.app.inject({ url: `/api/maps/explorations/${id}`, headers: user.auth })).json().state, { timeout, interval: 50 }).toMatch(state);
  return (await t.app.inject({ url: `/api/maps/explorations/${id}`, headers: user.auth })).json();
}

describe('with the workers running', () => {
  let t: App;
  let user: SignedUpUser;
  beforeAll(async () => {
    t = await listeningApp();
    user = await signUp(t.app);
  });
  afterAll(() => t.close());

  test('explores the demo app completely; map_get before and after through the MCP SDK client', async () => {
    const key = (await createKey(t.app, user, { scopes: ['maps:read'] })).key;
    const client = await connect(t.baseUrl, { headers: withKey(key) });
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toEqual(['map_get']);
      const before = (await call(client, 'map_get', { package: DEMO_APP_PACKAGE })) as CallToolResult;
      expect(before.isError).toBeFalsy();
      expect(before.structuredContent).toMatchObject({ package: DEMO_APP_PACKAGE, screens: [], transitions: [], updated_at: null, message: expect.stringContaining('No menu map') });

      const device = (await createCloudDevice(t.app, user)).id;
      const started = await t.app.inject({ method: 'POST', url: '/api/maps/explorations', headers: user.auth, payload: { device_id: device, package: DEMO_APP_PACKAGE } });
      expect(started.statusCode, started.body).toBe(202);
      const done = await waitForState(t, user, started.json().id, /^(done|failed|stopped)$/);
      expect(done).toMatchObject({ state: 'done', state_message: 'complete: every screen found was explored', screens_found: 9, started_at: expect.any(String), finished_at: expect.any(String) });
      expect(done.transitions_found).toBeGreaterThanOrEqual(16);
      // The device was started for it, and is free again.
      expect((await t.db.kysely.selectFrom('device_leases').select('device_id').where('device_id', '=', device).execute()).length).toBe(0);

      const list = (await t.app.inject({ url: '/api/maps', headers: user.auth })).json();
      expect(list.items).toEqual([{ package: DEMO_APP_PACKAGE, screen_count: 9, transition_count: done.transitions_found, updated_at: expect.any(String) }]);
      const map = (await t.app.inject({ url: `/api/maps/${DEMO_APP_PACKAGE}`, headers: user.auth })).json();
      expect(map.screens.map((s: { title: string }) => s.title)).toContain('Checkout');
      expect(map.screens[0]).toMatchObject({ title: 'Corner Shop', path: [], activity: 'com.example.shop.CatalogActivity' });
      // Each screen's thumbnail is in the image library (source crop), a JPEG that is served.
      for (const screen of map.screens) expect(screen.thumbnail_image_id, screen.title).toMatch(/^img_[0-9a-f]{16}$/);
      const image = await t.app.inject({ url: `/api/images/${map.screens[0].thumbnail_image_id}`, headers: user.auth });
      expect(image.json()).toMatchObject({ source: 'crop', content_type: 'image/jpeg', height: 480 });
      const after = (await call(client, 'map_get', { package: DEMO_APP_PACKAGE })) as CallToolResult;
      expect(after.structuredContent).toEqual(map);
      expect(JSON.parse((after.content[0] as { text: string }).text)).toEqual(map);
      // A bad package is a tool error, not a crash.
      expect(failure((await call(client, 'map_get', { package: 'no dots' })) as CallToolResult).code).toBe('validation_failed');
      // A thumbnail deleted from the library reads as none; the other screens keep theirs.
      expect((await t.app.inject({ method: 'DELETE', url: `/api/images/${map.screens[1].thumbnail_image_id}`, headers: user.auth })).statusCode).toBe(204);
      const without = (await t.app.inject({ url: `/api/maps/${DEMO_APP_PACKAGE}`, headers: user.auth })).json();
      expect(without.screens.map((s: { thumbnail_image_id: string | null }) => s.thumbnail_image_id)).toEqual(
        map.screens.map((s: { thumbnail_image_id: string }, i: number) => (i === 1 ? null : s.thumbnail_image_id)),
      );

      // Deleting the map: map_get is empty again.
      expect((await t.app.inject({ method: 'DELETE', url: `/api/maps/${DEMO_APP_PACKAGE}`, headers: user.auth })).statusCode).toBe(204);
      expect(((await call(client, 'map_get', { package: DEMO_APP_PACKAGE })) as CallToolResult).structuredContent).toMatchObject({ screens: [] });
      // Its thumbnails went with it.
      expect((await t.app.inject({ url: `/api/images/${map.screens[0].thumbnail_image_id}`, headers: user.auth })).statusCode).toBe(404);
    } finally {
      await client.close();
    }
  });

  test('a key without maps:read does not see map_get, and calling it is refused naming the scope', async () => {
    const key = (await createKey(t.app, user, { scopes: ['devices:control'] })).key;
    const client = await connect(t.baseUrl, { headers: withKey(key) });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('map_get');
      const refused = failure((await call(client, 'map_get', { package: DEMO_APP_PACKAGE })) as CallToolResult);
      expect(refused.code).toBe('insufficient_scope');
      expect(refused.text).toContain('maps:read');
    } finally {
      await client.close();
    }
  });
});

describe('stop and a lost worker (the job run by workers built here, on a slowed device)', () => {
  let t: App;
  let user: SignedUpUser;
  beforeAll(async () => {
    t = await listeningApp({ workers: false });
    user = await signUp(t.app);
  });
  afterAll(() => t.close());

  /** An exploration worker whose device answers every tap after `tapMs`. */
  function slowWorker(tapMs: number, clock = t.clock) {
    const faults = new SimFaults().inject('tap', { kind: 'delay', ms: tapMs });
    const host = new SimHost({ db: t.db, clock, bootMs: 0, faults });
    const readiness = {
      async startAndWait(_ctx: unknown, { id: deviceId }: { id: number }) {
        await host.place(deviceId);
        await host.boot(deviceId);
      },
    };
    const [worker] = buildMapsModule({ config: t.config, db: t.db, clock, host, readiness, log: silent }).workers;
    return worker;
  }

  async function start(device: number) {
    const res = await t.app.inject({ method: 'POST', url: '/api/maps/explorations', headers: user.auth, payload: { device_id: device, package: DEMO_APP_PACKAGE } });
    expect(res.statusCode, res.body).toBe(202);
    return res.json().id as number;
  }

  test('a stop mid-exploration answers stopped at once; what was learned so far becomes the map and the device is freed', async () => {
    const device = (await createCloudDevice(t.app, user)).id;
    const id = await start(device);
    const worker = slowWorker(40);
    worker.start();
    try {
      await expect.poll(async () => (await t.app.inject({ url: `/api/maps/explorations/${id}`, headers: user.auth })).json().screens_found, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(3);
      const stopped = await t.app.inject({ method: 'POST', url: `/api/maps/explorations/${id}/stop`, headers: user.auth });
      expect(stopped.json()).toMatchObject({ state: 'stopped', state_message: 'stopped on request' });
      await expect.poll(async () => (await t.db.kysely.selectFrom('device_leases').select('device_id').where('device_id', '=', device).execute()).length, { timeout: 10_000 }).toBe(0);
      const map = (await t.app.inject({ url: `/api/maps/${DEMO_APP_PACKAGE}`, headers: user.auth })).json();
      expect(map.screens.length).toBeGreaterThanOrEqual(3);
      expect(map.screens.length).toBeLessThan(9);
      const final = (await t.app.inject({ url: `/api/maps/explorations/${id}`, headers: user.auth })).json();
      expect(final).toMatchObject({ state: 'stopped', screens_found: map.screens.length });
    } finally {
      await worker.stop();
    }
  });

  test('a worker that dies mid-exploration: another ends it failed after its lease lapses, keeps the old map, frees the device', async () => {
    const device = (await createCloudDevice(t.app, user)).id;
    const oldMap = (await t.app.inject({ url: `/api/maps/${DEMO_APP_PACKAGE}`, headers: user.auth })).json();
    const id = await start(device);
    // The dying worker: its taps hang, and it is abandoned (never stopped), as a killed process would be.
    const dying = slowWorker(60_000);
    const claimed = dying.jobs.runOnce();
    claimed.catch(() => undefined);
    await expect.poll(async () => (await t.db.kysely.selectFrom('map_explorations').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state, { timeout: 10_000 }).toBe('running');
    const held = await t.db.kysely.selectFrom('map_explorations').select(['locked_until', 'locked_by']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(held.locked_by).toBeTruthy();
    // Nothing ends it before its lease runs out.
    const other = slowWorker(0, new ManualClock(t.clock.now()));
    expect(await other.jobs.runOnce()).toBe(0);
    expect((await t.db.kysely.selectFrom('map_explorations').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state).toBe('running');
    // Past the lease, another worker recovers it: failed, never explored again.
    const later = slowWorker(0, new ManualClock(Number(held.locked_until) + 1));
    expect(await later.jobs.runOnce()).toBe(0);
    const ended = (await t.app.inject({ url: `/api/maps/explorations/${id}`, headers: user.auth })).json();
    expect(ended).toMatchObject({ state: 'failed', state_message: EXPLORATION_WORKER_LOST, finished_at: expect.any(String) });
    expect((await t.db.kysely.selectFrom('device_leases').select('device_id').where('device_id', '=', device).execute()).length).toBe(0);
    expect((await t.app.inject({ url: `/api/maps/${DEMO_APP_PACKAGE}`, headers: user.auth })).json()).toEqual(oldMap);
    // The device is free for the next exploration.
    expect((await t.app.inject({ method: 'POST', url: '/api/maps/explorations', headers: user.auth, payload: { device_id: device, package: DEMO_APP_PACKAGE } })).statusCode).toBe(202);
  });
});
