// The lifecycle and the device routes on DEVICE_HOST=adb, against the fake ADB server (a real
// ADB host-protocol server on 127.0.0.1): a start binds a free serial and boots, the routes
// show the phone's screen and apps and install an APK over ADB, a stop frees the serial, and
// a start with every serial taken ends in error "no device capacity".
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createLifecycleWorker } from '../../../src/modules/devices/index.js';
import type { FakeAdbServer } from '../../helpers/fake-adb/server.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';
import { startFakeAdb } from './hosts/helpers/adb.js';
import { buildApk } from './hosts/helpers/build-apk.js';
import { decode } from './hosts/helpers/pixels.js';
import { deviceRow, quietLog } from './helpers/cloud.js';

let adb: FakeAdbServer;
let t: TestApp;
let user: SignedUpUser;
let worker: ReturnType<typeof createLifecycleWorker>;

beforeAll(async () => {
  adb = await startFakeAdb([{ serial: 'emulator-5554', model: 'Pixel Fake' }]);
  t = await createTestApp({ env: { DEVICE_HOST: 'adb', ADB_SERVERS: `127.0.0.1:${adb.port}` } });
  user = await signUp(t.app);
  const { host } = t.app.modules.devices.services;
  worker = createLifecycleWorker({ db: t.db, clock: t.clock, log: quietLog, host, stopActiveRun: async () => undefined });
});
afterAll(async () => {
  await t?.close();
  await adb?.close();
});

const post = (url: string) => t.app.inject({ method: 'POST', url, headers: user.auth });

test('start binds the serial and boots; the routes drive the phone over ADB; stop frees the serial', async () => {
  const { id } = await createCloudDevice(t.app, user);
  expect((await post(`/api/hosted/devices/${id}/start`)).statusCode).toBe(202);
  await worker.runOnce();
  expect((await deviceRow(t.db, id))?.hosted_state).toBe('ready');
  expect(await t.app.modules.devices.services.host.placement(id)).toMatchObject({ host: 'adb', slot: `127.0.0.1:${adb.port}/emulator-5554`, status: 'ready' });

  const shot = await t.app.inject({ url: `/api/hosted/devices/${id}/screenshot?format=jpeg&max_edge=1280`, headers: user.auth });
  expect(shot.statusCode).toBe(200);
  expect(await decode(shot.rawPayload)).toMatchObject({ format: 'jpeg', height: 1280 });
  const apk = readFileSync(await buildApk({ package: 'org.example.overadb', label: 'Over ADB', versionName: '2.1', versionCode: 21 }));
  const installed = await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/apks`, headers: { ...user.auth, 'content-type': 'application/vnd.android.package-archive' }, payload: apk });
  expect(installed.statusCode, installed.body).toBe(201);
  expect(installed.json()).toEqual({ package: 'org.example.overadb', label: 'Over ADB', version_name: '2.1', version_code: 21 });
  const apps = (await t.app.inject({ url: `/api/hosted/devices/${id}/apps`, headers: user.auth })).json().items;
  expect(apps.map((a: { package: string }) => a.package)).toContain('org.example.overadb');

  // The only serial is taken: a second device cannot be placed.
  const second = (await createCloudDevice(t.app, user)).id;
  await post(`/api/hosted/devices/${second}/start`);
  await worker.runOnce();
  const refused = await deviceRow(t.db, second);
  expect(refused?.hosted_state).toBe('error');
  expect(refused?.hosted_state_message).toMatch(/^no device capacity/);

  // Stopping the first frees the serial for the second.
  expect((await post(`/api/hosted/devices/${id}/stop`)).statusCode).toBe(202);
  await worker.runOnce();
  expect((await deviceRow(t.db, id))?.hosted_state).toBe('stopped');
  await post(`/api/hosted/devices/${second}/start`);
  await worker.runOnce();
  expect((await deviceRow(t.db, second))?.hosted_state).toBe('ready');
});

test('a phone that refuses injected input ends the start in error, and hosted_state_message says which setting to turn on', async () => {
  const miui = await startFakeAdb([{ serial: 'miui-phone', behaviour: { injectEventsDenied: true } }]);
  const other = await createTestApp({ env: { DEVICE_HOST: 'adb', ADB_SERVERS: `127.0.0.1:${miui.port}` } });
  try {
    const owner = await signUp(other.app);
    const lifecycle = createLifecycleWorker({ db: other.db, clock: other.clock, log: quietLog, host: other.app.modules.devices.services.host, stopActiveRun: async () => undefined });
    const { id } = await createCloudDevice(other.app, owner);
    expect((await other.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/start`, headers: owner.auth })).statusCode).toBe(202);
    await lifecycle.runOnce();
    const row = await deviceRow(other.db, id);
    expect(row?.hosted_state).toBe('error');
    expect(row?.hosted_state_message).toContain('"USB debugging (Security settings)"');
  } finally {
    await other.close();
    await miui.close();
  }
});
