// The live view's tap (our extension, docs/cloud-devices.md): a session-only tap in device
// pixels that answers the element hit, refused while the device is not ready or has an active
// cloud run, and for someone else's device or a local one.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createCloudDevice, createDevice } from '../../helpers/resources.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';
import { lifecycleFor, type TestLifecycle } from './helpers/cloud.js';

let t: TestApp;
let user: SignedUpUser;
let life: TestLifecycle;

async function readyDevice(): Promise<number> {
  const id = (await createCloudDevice(t.app, user)).id as number;
  expect((await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/start`, headers: user.auth })).statusCode).toBe(202);
  await life.worker.runOnce();
  return id;
}

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_BOOT_MS: '0' } });
  user = await signUp(t.app);
  life = lifecycleFor(t.db, t.clock);
});
afterAll(() => t.close());

const tap = (id: number, payload: unknown, who = user) => t.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/tap`, headers: who.auth, payload: payload as object });
const screenshot = async (id: number) => (await t.app.inject({ url: `/api/hosted/devices/${id}/screenshot`, headers: user.auth })).rawPayload;

describe('tap', () => {
  test('taps a clickable element: 200 with the element, and the screen changes', async () => {
    const id = await readyDevice();
    const tree = await (await t.app.modules.devices.services.host.driver(id)).uiTree();
    const target = tree.find((e) => e.clickable);
    expect(target).toBeDefined();
    const { left, top, right, bottom } = target!.bounds;
    const before = await screenshot(id);
    const res = await tap(id, { x: Math.floor((left + right) / 2), y: Math.floor((top + bottom) / 2) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().element).toMatchObject({ element_id: target!.element_id, bounds: target!.bounds, clickable: true });
    expect((await screenshot(id)).equals(before)).toBe(false);
  });

  test('a tap on nothing answers element null', async () => {
    const id = await readyDevice();
    const tree = await (await t.app.modules.devices.services.host.driver(id)).uiTree();
    // A point no clickable element covers, if the screen has one; the corner pixel is a status bar on sim.
    const free = [[0, 0], [1079, 2399], [540, 1]].find(([x, y]) => !tree.some((e) => e.clickable && x >= e.bounds.left && x < e.bounds.right && y >= e.bounds.top && y < e.bounds.bottom));
    expect(free).toBeDefined();
    const res = await tap(id, { x: free![0], y: free![1] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ element: null });
  });

  test('a stopped device is 409 device_not_ready', async () => {
    const id = (await createCloudDevice(t.app, user)).id;
    const res = await tap(id, { x: 10, y: 10 });
    expect([res.statusCode, res.json().details.code]).toEqual([409, 'device_not_ready']);
  });

  test('a device with an active cloud run is 409 device_busy, also while the run is stopping', async () => {
    const id = await readyDevice();
    const macro = await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Wait', kind: 'block', blocks: { version: 1, steps: [{ type: 'log', message: 'hi' }] } } });
    expect(macro.statusCode, macro.body).toBe(201);
    // No run worker in this app: the run stays `launching`, which is active.
    const run = await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/run`, headers: user.auth, payload: { macro_id: macro.json().id } });
    expect(run.statusCode, run.body).toBe(201);
    const res = await tap(id, { x: 540, y: 1200 });
    expect([res.statusCode, res.json().details.code]).toEqual([409, 'device_busy']);
    expect(res.json().message).toContain('active run');
    // With no worker to end it, a stopped run stays `stopping`: still active, still busy.
    const stop = await t.app.inject({ method: 'POST', url: `/api/hosted/runs/${run.json().id}/stop`, headers: user.auth });
    expect(stop.statusCode, stop.body).toBeLessThan(300);
    const state = (await t.app.inject({ url: `/api/hosted/runs/${run.json().id}`, headers: user.auth })).json().state;
    expect(state).toBe('stopping');
    expect((await tap(id, { x: 540, y: 1200 })).json().details.code).toBe('device_busy');
  });

  test("another account's device is 404 not_found; a local device is 404 not_a_cloud_device", async () => {
    const id = await readyDevice();
    const other = await signUp(t.app);
    const res = await tap(id, { x: 10, y: 10 }, other);
    expect([res.statusCode, res.json().details.code]).toEqual([404, 'not_found']);
    const local = (await createDevice(t.app, user)).id;
    const res2 = await tap(local, { x: 10, y: 10 });
    expect([res2.statusCode, res2.json().details.code]).toEqual([404, 'not_a_cloud_device']);
  });

  test('a bad body is 422: missing, not whole, negative, off the screen, extra fields', async () => {
    const id = await readyDevice();
    for (const body of [{}, { x: 1 }, { x: 1.5, y: 2 }, { x: -1, y: 2 }, { x: 1080, y: 10 }, { x: 10, y: 2400 }, { x: 1, y: 2, z: 3 }, { x: '1', y: 2 }]) {
      const res = await tap(id, body);
      expect([res.statusCode, res.json().details.code], JSON.stringify(body)).toEqual([422, 'validation_failed']);
    }
  });

  test('a key is refused (an application route): 401', async () => {
    const id = await readyDevice();
    const key = await t.app.inject({ method: 'POST', url: '/api/api-keys', headers: user.auth, payload: { name: 'k', scopes: ['devices:control'] } });
    const res = await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/tap`, headers: { 'x-api-key': key.json().key }, payload: { x: 1, y: 1 } });
    expect(res.statusCode).toBe(401);
  });
});
