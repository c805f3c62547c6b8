// The tools that drive a leased device, through the SDK client on the real lease service
// and the simulated host: screenshot (text block, then a JPEG within 1280 px), UI tree, tap
// by point, element and text, swipe, key, read text, type and the app tools.
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/index.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { call, data, failure } from './helpers/client.js';
import { useMcpWorld } from './helpers/world.js';

const w = useMcpWorld();

type Lease = { lease_id: string; device_id: number; expires_at: string };

describe('driving a leased device', () => {
  test('screenshot: a text block with sizes and scale, then a JPEG within 1280 px', async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Camera' });
    const client = await w.clientFor(w.owner, ['devices:control']);
    const { lease_id } = data<Lease>(await call(client, 'device_lease', { device_id: device.id }));
    const shot = await call(client, 'device_screenshot', { lease_id });
    expect(shot.isError).toBeFalsy();
    expect(shot.content).toHaveLength(2);
    expect(shot.content[0]).toEqual({ type: 'text', text: 'Screenshot 576×1280 JPEG of a 1080×2400 device screen; scale 0.5333 (device pixel = image pixel ÷ 0.5333).' });
    const image = shot.content[1] as { type: string; mimeType: string; data: string };
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/jpeg' });
    const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 576, height: 1280 });
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(1280);
  });

  test('UI tree, tap by point, element and text, swipe, key, read text, apps', async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Fingers' });
    const client = await w.clientFor(w.owner, ['devices:control']);
    const { lease_id } = data<Lease>(await call(client, 'device_lease', { device_id: device.id }));
    type El = { element_id: string; text: string; clickable: boolean; center: { x: number; y: number }; bounds: { left: number; top: number; right: number; bottom: number } };
    const tree = async () => data<{ elements: El[] }>(await call(client, 'device_ui_tree', { lease_id })).elements;

    const home = await tree();
    const icon = home.find((e) => e.text === 'Corner Shop');
    expect(icon).toMatchObject({ clickable: true, center: { x: Math.floor((icon!.bounds.left + icon!.bounds.right) / 2), y: Math.floor((icon!.bounds.top + icon!.bounds.bottom) / 2) } });
    const byPoint = data<{ x: number; y: number; hit: El | null }>(await call(client, 'device_tap', { lease_id, x: icon!.center.x, y: icon!.center.y }));
    expect(byPoint).toMatchObject({ x: icon!.center.x, y: icon!.center.y, hit: { text: 'Corner Shop', clickable: true } });
    const shop = await tree();
    expect(shop.map((e) => e.element_id)).toContain('row_beans');

    const byText = data<{ hit: El | null }>(await call(client, 'device_tap', { lease_id, text: 'espresso beans' }));
    expect(byText.hit?.element_id).toBe('row_beans');
    const detail = await tree();
    const add = detail.find((e) => e.text === 'Add to cart');
    expect(add).toBeDefined();
    const byElement = data<{ x: number; y: number; hit: El | null }>(await call(client, 'device_tap', { lease_id, element_id: add!.element_id }));
    expect(byElement).toMatchObject({ x: add!.center.x, y: add!.center.y, hit: { element_id: add!.element_id } });

    const { lines } = data<{ lines: { text: string }[] }>(await call(client, 'device_read_text', { lease_id }));
    expect(lines.length).toBeGreaterThan(0);
    expect(failure(await call(client, 'device_tap', { lease_id, text: 'No such words anywhere' }))).toMatchObject({ code: 'text_not_found' });
    expect(failure(await call(client, 'device_tap', { lease_id, element_id: 'no_such_element' }))).toMatchObject({ code: 'element_not_found' });
    // A tap on empty space hits nothing.
    expect(data(await call(client, 'device_tap', { lease_id, x: 0, y: 0 }))).toMatchObject({ x: 0, y: 0 });

    expect((await call(client, 'device_key', { lease_id, key: 'BACK' })).content[0]).toMatchObject({ text: 'Pressed BACK.' });
    expect((await call(client, 'device_key', { lease_id, key: 'KEYCODE_HOME' })).isError).toBeFalsy();
    expect(failure(await call(client, 'device_key', { lease_id, key: 'NOT_A_KEY' }))).toMatchObject({ code: 'validation_failed' });
    expect((await call(client, 'device_swipe', { lease_id, from: { x: 540, y: 1800 }, to: { x: 540, y: 900 } })).isError).toBeFalsy();

    const { items: apps } = data<{ items: { package: string; label: string; version_name: string }[] }>(await call(client, 'app_list', { lease_id }));
    expect(apps.find((a) => a.package === DEMO_APP_PACKAGE)).toMatchObject({ label: expect.any(String), version_name: expect.any(String) });
    expect((await call(client, 'app_open', { lease_id, package: DEMO_APP_PACKAGE })).content[0]).toMatchObject({ text: `Opened ${DEMO_APP_PACKAGE}.` });
    expect((await tree()).length).toBeGreaterThan(0);
    expect((await call(client, 'app_close', { lease_id, package: DEMO_APP_PACKAGE })).content[0]).toMatchObject({ text: `Closed ${DEMO_APP_PACKAGE}.` });
    expect(failure(await call(client, 'app_open', { lease_id, package: 'com.nope.app' }))).toMatchObject({ code: 'app_not_installed' });
  });

  test('typing into a field, and submit', async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Typist' });
    const client = await w.clientFor(w.owner, ['devices:control']);
    const { lease_id } = data<Lease>(await call(client, 'device_lease', { device_id: device.id }));
    for (const text of ['Corner Shop', 'espresso beans', 'Add to cart', 'Check out']) {
      expect((await call(client, 'device_tap', { lease_id, text })).isError, text).toBeFalsy();
    }
    await call(client, 'device_tap', { lease_id, element_id: 'full_name' });
    expect(data(await call(client, 'device_type', { lease_id, text: 'Ada Lovelace' }))).toEqual({ element: null, characters: 12 });
    const { elements } = data<{ elements: { element_id: string; text: string }[] }>(await call(client, 'device_ui_tree', { lease_id }));
    expect(elements.find((e) => e.element_id === 'full_name')?.text).toBe('Ada Lovelace');
    expect(data(await call(client, 'device_type', { lease_id, text: ' Byron', submit: true }))).toEqual({ element: null, characters: 6 });
  });
});
