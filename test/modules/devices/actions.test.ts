// Seeing and touching a cloud device from the application: screenshot, live view, installed
// apps and APK install, each refused with 409 device_not_ready unless the device is ready,
// 404 for someone else's device and 404 not_a_cloud_device for a local one.
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { APK_MAX_BYTES } from '../../../src/modules/devices/index.js';
import { DeviceActions } from '../../../src/modules/devices/actions/service.js';
import { deviceHasActiveRun } from '../../../src/modules/runs/index.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createCloudDevice, createDevice } from '../../helpers/resources.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';
import { buildApk } from './hosts/helpers/build-apk.js';
import { decode } from './hosts/helpers/pixels.js';
import { lifecycleFor, type TestLifecycle } from './helpers/cloud.js';

let t: TestApp;
let user: SignedUpUser;
let life: TestLifecycle;
let ready: number;
let stopped: number;
beforeAll(async () => {
  t = await createTestApp({ env: { SIM_BOOT_MS: '0' } });
  user = await signUp(t.app);
  life = lifecycleFor(t.db, t.clock);
  ready = (await createCloudDevice(t.app, user)).id;
  stopped = (await createCloudDevice(t.app, user)).id;
  await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${ready}/start`, headers: user.auth });
  await life.worker.runOnce();
});
afterAll(() => t.close());

const get = (url: string, who = user) => t.app.inject({ url, headers: who.auth });
const apkPost = (id: number, body: Buffer, contentType = 'application/vnd.android.package-archive', who = user) =>
  t.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/apks`, headers: { ...who.auth, 'content-type': contentType }, payload: body });

describe('screenshot', () => {
  test('PNG by default, at the full 1080×2400', async () => {
    const res = await get(`/api/hosted/devices/${ready}/screenshot`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(await decode(res.rawPayload)).toMatchObject({ format: 'png', width: 1080, height: 2400 });
  });

  test('JPEG scaled to max_edge', async () => {
    const res = await get(`/api/hosted/devices/${ready}/screenshot?format=jpeg&max_edge=640`);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(await decode(res.rawPayload)).toMatchObject({ format: 'jpeg', width: 288, height: 640 });
  });

  test('max_edge and format out of range are 422', async () => {
    for (const query of ['max_edge=63', 'max_edge=4097', 'format=gif']) {
      expect((await get(`/api/hosted/devices/${ready}/screenshot?${query}`)).statusCode).toBe(422);
    }
  });
});

describe('apps and APKs', () => {
  test('lists the installed apps', async () => {
    const res = await get(`/api/hosted/devices/${ready}/apps`);
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((a: { package: string }) => a.package)).toContain('com.example.shop');
    expect(res.json().items[0]).toEqual({ package: expect.any(String), label: expect.any(String), version_name: expect.any(String) });
  });

  test('installs a real APK built by aapt: 201 with what its manifest says, then listed', async () => {
    const apk = readFileSync(await buildApk({ package: 'org.example.upload', label: 'Uploaded', versionName: '1.4', versionCode: 14 }));
    const res = await apkPost(ready, apk);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ package: 'org.example.upload', label: 'Uploaded', version_name: '1.4', version_code: 14 });
    const apps = (await get(`/api/hosted/devices/${ready}/apps`)).json().items;
    expect(apps).toContainEqual({ package: 'org.example.upload', label: 'Uploaded', version_name: '1.4' });
    // application/octet-stream is accepted too.
    expect((await apkPost(ready, apk, 'application/octet-stream')).statusCode).toBe(201);
  });

  test('a body that is not an APK is 422 invalid_apk and installs nothing', async () => {
    const before = (await get(`/api/hosted/devices/${ready}/apps`)).json().items;
    for (const body of [Buffer.from('this is not a zip'), Buffer.alloc(0)]) {
      const res = await apkPost(ready, body);
      expect([res.statusCode, res.json().details.code]).toEqual([422, 'invalid_apk']);
    }
    expect((await get(`/api/hosted/devices/${ready}/apps`)).json().items).toEqual(before);
  });

  test('an APK over the limit is 413: refused on its declared length, or cut off as it streams', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/hosted/devices/${ready}/apks`,
      headers: { ...user.auth, 'content-type': 'application/vnd.android.package-archive', 'content-length': String(APK_MAX_BYTES + 1) },
      payload: Buffer.from('PK'),
    });
    expect([res.statusCode, res.json().details.code, res.json().details.limit]).toEqual([413, 'payload_too_large', APK_MAX_BYTES]);
    // Streamed without a length (chunked): counted as it arrives. A 400-byte limit stands in for 200 MiB.
    const actions = new DeviceActions(t.db.kysely, t.app.modules.devices.services.host, deviceHasActiveRun, { apkMaxBytes: 400 });
    const apk = readFileSync(await buildApk({ package: 'org.example.big', label: 'Big', versionName: '1', versionCode: 1 }));
    expect(apk.length).toBeGreaterThan(400);
    const error = await actions.installApk({ userId: user.id }, { id: ready, body: Readable.from([apk.subarray(0, 300), apk.subarray(300)]) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect((await get(`/api/hosted/devices/${ready}/apps`)).json().items.map((a: { package: string }) => a.package)).not.toContain('org.example.big');
  });

  test('a JSON body is refused (415), never installed', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${ready}/apks`, headers: user.auth, payload: { apk: 'x' } });
    expect(res.statusCode).toBe(415);
  });
});

describe('live view', () => {
  test('streams JPEG frames as multipart/x-mixed-replace until the client leaves', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const started = Date.now();
    const { type, frames } = await new Promise<{ type: string; frames: Buffer }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: `/api/hosted/devices/${ready}/live?fps=10`, headers: user.auth }, (res) => {
        let body = Buffer.alloc(0);
        res.on('data', (chunk: Buffer) => {
          body = Buffer.concat([body, chunk]);
          // Three whole frames: the fourth boundary has arrived.
          if (body.toString('latin1').split('--frame\r\n').length > 4) {
            req.destroy();
            resolve({ type: String(res.headers['content-type']), frames: body });
          }
        });
        res.on('error', () => undefined);
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    });
    expect(type).toBe('multipart/x-mixed-replace; boundary=frame');
    const parts = frames.toString('latin1').split('--frame\r\n').slice(1, 4);
    for (const part of parts) {
      expect(part).toMatch(/^Content-Type: image\/jpeg\r\nContent-Length: \d+\r\n\r\n/);
      const [head] = part.split('\r\n\r\n');
      const length = Number(/Content-Length: (\d+)/.exec(head)?.[1]);
      const jpeg = Buffer.from(part.slice(head.length + 4, head.length + 4 + length), 'latin1');
      expect(await decode(jpeg)).toMatchObject({ format: 'jpeg', height: 1280 });
    }
    // At 10 fps, three frames take at least 200 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
  });

  test('fps out of 1..10 is 422', async () => {
    for (const fps of [0, 11]) expect((await get(`/api/hosted/devices/${ready}/live?fps=${fps}`)).statusCode).toBe(422);
  });
});

describe('refusals', () => {
  const routes = (id: number) => [
    () => get(`/api/hosted/devices/${id}/screenshot`),
    () => get(`/api/hosted/devices/${id}/live`),
    () => get(`/api/hosted/devices/${id}/apps`),
    () => apkPost(id, Buffer.from('PK')),
  ];

  test('a device that is not ready answers 409 device_not_ready on every action', async () => {
    for (const send of routes(stopped)) {
      const res = await send();
      expect([res.statusCode, res.json().details.code]).toEqual([409, 'device_not_ready']);
    }
  });

  test("another account's device is 404 not_found; a local device is 404 not_a_cloud_device", async () => {
    const other = await signUp(t.app);
    for (const send of [
      () => get(`/api/hosted/devices/${ready}/screenshot`, other),
      () => get(`/api/hosted/devices/${ready}/live`, other),
      () => get(`/api/hosted/devices/${ready}/apps`, other),
      () => apkPost(ready, Buffer.from('PK'), undefined, other),
    ]) {
      const res = await send();
      expect([res.statusCode, res.json().details.code]).toEqual([404, 'not_found']);
    }
    const local = await createDevice(t.app, user);
    for (const send of routes(local.id)) {
      const res = await send();
      expect([res.statusCode, res.json().details.code]).toEqual([404, 'not_a_cloud_device']);
    }
  });
});
