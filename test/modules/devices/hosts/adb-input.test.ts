// Input on a real phone: what `input` answers is read, so a phone that refuses injected
// events (Xiaomi without "USB debugging (Security settings)") is a host fault that says what
// to turn on, not a silent success. Against the fake ADB server.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DeviceDriver } from '../../../../src/modules/devices/hosts/types.js';
import type { FakeAndroidDevice } from '../../../helpers/fake-adb/device.js';
import type { FakeAdbServer } from '../../../helpers/fake-adb/server.js';
import { adbHostFor, bootedAdb, startFakeAdb } from './helpers/adb.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';
import { centre, find } from './helpers/sim.js';

const SHOP = 'com.example.shop';
let t: HostTestDb;
let server: FakeAdbServer;
let phone: FakeAndroidDevice;
let d: DeviceDriver;

beforeAll(async () => {
  t = await openHostTestDb();
  server = await startFakeAdb([{ serial: 'emulator-5554' }]);
  phone = server.devices.get('emulator-5554')!;
  d = (await bootedAdb(t, [server])).driver;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe('a phone that refuses injected input (INJECT_EVENTS)', () => {
  test('taps, swipes, keys and text are host faults naming the setting to turn on; nothing happened', async () => {
    await d.openApp(SHOP);
    const [x, y] = centre(await find(d, 'row_beans'));
    phone.behaviour.injectEventsDenied = true;
    try {
      const fault = { status: 502, code: 'device_host_fault', message: expect.stringContaining('USB debugging (Security settings)') };
      await expect(d.tap(x, y)).rejects.toMatchObject(fault);
      await expect(d.swipe(540, 1800, 540, 600, 100)).rejects.toMatchObject(fault);
      await expect(d.pressKey('BACK')).rejects.toMatchObject(fault);
      await expect(d.typeText('hello')).rejects.toMatchObject(fault);
    } finally {
      phone.behaviour.injectEventsDenied = false;
    }
    expect((await find(d, 'title')).text).toBe('Corner Shop');
  });

  test('a boot on such a phone fails with that message (it becomes the device’s hosted_state_message)', async () => {
    const other = await startFakeAdb([{ serial: 'miui-phone', behaviour: { injectEventsDenied: true } }]);
    try {
      const host = adbHostFor(t.db, [other]);
      const id = await t.createDevice();
      await host.place(id);
      await expect(host.boot(id)).rejects.toMatchObject({ code: 'device_host_fault', message: expect.stringMatching(/INJECT_EVENTS.*"USB debugging \(Security settings\)"/s) });
      await expect(host.driver(id)).rejects.toMatchObject({ code: 'device_not_ready' });
    } finally {
      await other.close();
    }
  });
});

describe('tap first', () => {
  test('on a screen that never settles (video, a spinner) the tap goes out at once; identifying the element never holds it back', async () => {
    await d.closeApp(SHOP);
    await d.openApp(SHOP);
    const [x, y] = centre(await find(d, 'row_beans'));
    await d.pressKey('BACK'); // nothing fresh is known of the screen now
    await d.openApp(SHOP);
    phone.uiDumpIdleFailures = 100;
    phone.behaviour.uiDumpMs = 300;
    try {
      const before = phone.commands.length;
      const started = performance.now();
      const hit = await d.tap(x, y, { identify: true });
      expect(performance.now() - started).toBeLessThan(250);
      expect(phone.commands.slice(before)).toEqual([`input tap ${x} ${y}`]);
      expect(hit).toBeNull();
    } finally {
      phone.uiDumpIdleFailures = 0;
      phone.behaviour.uiDumpMs = 5;
    }
    expect((await find(d, 'title')).text).toBe('Espresso beans');
  });

  test('the element is named from the UI tree just read (as tap-by-text reads it), without a second dump', async () => {
    await d.pressKey('BACK');
    const [x, y] = centre(await find(d, 'row_mug'));
    const before = phone.commands.length;
    expect(await d.tap(x, y, { identify: true })).toMatchObject({ resource_id: `${SHOP}:id/row_mug`, clickable: true });
    expect(phone.commands.slice(before)).toEqual([`input tap ${x} ${y}`]);
    // That tree is spent: the screen changed, so the next identify knows nothing.
    expect(await d.tap(5, 2000, { identify: true })).toBeNull();
    expect((await find(d, 'title')).text).toBe('Ceramic mug');
  });
});

describe('keys', () => {
  test('keys Android added after 10 (SCREENSHOT, RECENT_APPS, F13) are known, and go by number so an older build ignores them', async () => {
    const before = phone.commands.length;
    await d.pressKey('SCREENSHOT');
    await d.pressKey('KEYCODE_RECENT_APPS');
    await d.pressKey('f13');
    await d.pressKey('BACK');
    expect(phone.commands.slice(before)).toEqual(['input keyevent 318', 'input keyevent 312', 'input keyevent 326', 'input keyevent 4']);
    await expect(d.pressKey('KEYCODE_F25')).rejects.toMatchObject({ status: 422 });
  });
});
