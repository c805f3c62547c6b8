// The console's "crop from the live view" (POST /api/images/crop, our extension): a rectangle
// of a ready cloud device's screen stored as a PNG with source "crop", holding exactly the
// screen's pixels there; refused, storing nothing, for a rectangle off the screen or too
// small, a stopped device, a device on the person's own machine, someone else's device, and a key.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createCloudDevice, createDevice } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';
import { lifecycleFor, type TestLifecycle } from '../devices/helpers/cloud.js';

let t: TestApp;
let me: SignedUpUser;
let other: SignedUpUser;
let life: TestLifecycle;

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_BOOT_MS: '0' } });
  me = await signUp(t.app);
  other = await signUp(t.app);
  life = lifecycleFor(t.db, t.clock);
});
afterAll(() => t.close());

async function readyDevice(user = me): Promise<number> {
  const id = (await createCloudDevice(t.app, user)).id as number;
  expect((await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/start`, headers: user.auth })).statusCode).toBe(202);
  await life.worker.runOnce();
  return id;
}

const crop = (payload: object, headers: Record<string, string> = me.auth) => t.app.inject({ method: 'POST', url: '/api/images/crop', headers, payload });
const imageCount = async () => Number((await t.db.kysely.selectFrom('images').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const rawPixels = (png: Buffer, region?: { left: number; top: number; width: number; height: number }) =>
  (region ? sharp(png).extract(region) : sharp(png)).removeAlpha().raw().toBuffer();

async function expectRefused(payload: object, status: number, code: string, headers?: Record<string, string>) {
  const before = await imageCount();
  const res = await crop(payload, headers);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().details.code).toBe(code);
  expect(await imageCount()).toBe(before);
}

describe('crop from a cloud device screen', () => {
  test('stores the rectangle as a PNG with source crop, the exact pixels the screen shows there', async () => {
    const id = await readyDevice();
    const rect = { x: 100, y: 300, w: 240, h: 160 };
    const res = await crop({ device_id: id, ...rect, name: 'Home corner' });
    expect(res.statusCode, res.body).toBe(201);
    const image = res.json();
    expect(image).toMatchObject({ id: expect.stringMatching(/^img_[0-9a-f]{16}$/), name: 'Home corner', width: 240, height: 160, content_type: 'image/png', source: 'crop' });
    const content = (await t.app.inject({ url: `/api/images/${image.id}/content`, headers: me.auth })).rawPayload;
    const screen = (await t.app.inject({ url: `/api/hosted/devices/${id}/screenshot`, headers: me.auth })).rawPayload;
    const expected = await rawPixels(screen, { left: rect.x, top: rect.y, width: rect.w, height: rect.h });
    expect((await rawPixels(content)).equals(expected)).toBe(true);
    // Listed with the crops.
    const crops = (await t.app.inject({ url: '/api/images?source=crop', headers: me.auth })).json();
    expect(crops.rows.map((r: { id: string }) => r.id)).toEqual([image.id]);
  });

  test('a rectangle off the screen, too small, or without a name is 422 and stores nothing', async () => {
    const id = await readyDevice();
    await expectRefused({ device_id: id, x: 1000, y: 100, w: 200, h: 100, name: 'off the edge' }, 422, 'validation_failed');
    await expectRefused({ device_id: id, x: 0, y: 2300, w: 100, h: 101, name: 'below' }, 422, 'validation_failed');
    await expectRefused({ device_id: id, x: 10, y: 10, w: 4, h: 40, name: 'too thin' }, 422, 'validation_failed');
    await expectRefused({ device_id: id, x: 10, y: 10, w: 40, h: 40, name: '' }, 422, 'validation_failed');
    await expectRefused({ device_id: id, x: 10, y: 10, w: 40, h: 40, name: 'extra', source: 'upload' }, 422, 'validation_failed');
  });

  test('a stopped device is 409; a local device, a missing one and someone else’s are 404', async () => {
    const stopped = (await createCloudDevice(t.app, me)).id as number;
    await expectRefused({ device_id: stopped, x: 0, y: 0, w: 40, h: 40, name: 'x' }, 409, 'device_not_ready');
    const local = (await createDevice(t.app, me)).id as number;
    await expectRefused({ device_id: local, x: 0, y: 0, w: 40, h: 40, name: 'x' }, 404, 'not_a_cloud_device');
    await expectRefused({ device_id: 999_999, x: 0, y: 0, w: 40, h: 40, name: 'x' }, 404, 'not_found');
    const theirs = await readyDevice(other);
    await expectRefused({ device_id: theirs, x: 0, y: 0, w: 40, h: 40, name: 'x' }, 404, 'not_found');
  });

  test('a key on this application route is 401', async () => {
    const id = await readyDevice();
    const { key } = await createKey(t.app, me);
    await expectRefused({ device_id: id, x: 0, y: 0, w: 40, h: 40, name: 'x' }, 401, 'missing_credentials', withKey(key));
  });
});
