// What a real phone's screen reports that the driver must read as it is: text over several
// lines in a UI dump (character references), a rotated display. Against the fake ADB server,
// whose phone behaves as a real one does (test/helpers/fake-adb/device.ts, FakeBehaviour).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DeviceDriver } from '../../../../src/modules/devices/hosts/types.js';
import { NOTES_PACKAGE, notesApp } from '../../../helpers/fake-adb/apps.js';
import type { FakeAndroidDevice } from '../../../helpers/fake-adb/device.js';
import type { FakeAdbServer } from '../../../helpers/fake-adb/server.js';
import { bootedAdb, startFakeAdb } from './helpers/adb.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';
import { decode, hex } from './helpers/pixels.js';
import { themeFor } from '../../../../src/modules/devices/hosts/sim/render/palette.js';

let t: HostTestDb;
let server: FakeAdbServer;
let phone: FakeAndroidDevice;
let d: DeviceDriver;

beforeAll(async () => {
  t = await openHostTestDb();
  server = await startFakeAdb([{ serial: 'emulator-5554', apps: [notesApp] }]);
  phone = server.devices.get('emulator-5554')!;
  d = (await bootedAdb(t, [server])).driver;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe('character references in UI dumps', () => {
  test('text over several lines comes back as the app shows it, and find-by-text can match it', async () => {
    await d.openApp(NOTES_PACKAGE, { activity: '.NotesActivity' });
    const tree = await d.uiTree();
    const note = tree.find((e) => e.resource_id === `${NOTES_PACKAGE}:id/note`);
    expect(note?.text).toBe('Shopping\nMilk\tx2');
    expect(tree.some((e) => e.text.includes('&#'))).toBe(false);
    // The fake wrote references, as a phone does: the test would pass without them otherwise.
    expect(phone.behaviour.characterReferences).toBe(true);
  });
});

describe('a rotated display', () => {
  test('screenshots, the UI tree, taps and the screen size all follow the rotation', async () => {
    await d.closeApp('com.example.shop');
    await d.openApp('com.example.shop');
    phone.behaviour.rotation = 1;
    try {
      const shot = await d.screenshot();
      expect(shot).toMatchObject({ width: 2400, height: 1080 });
      expect(await d.screenSize()).toEqual({ width: 2400, height: 1080, density: 420 });
      // The checkout button sits at x ≥ 1080 in the rotated frame: a correct tap there lands.
      const checkout = (await d.uiTree()).find((e) => e.text === 'Checkout')!;
      expect(checkout.bounds.left).toBeGreaterThanOrEqual(1080);
      const x = Math.floor((checkout.bounds.left + checkout.bounds.right) / 2);
      const y = Math.floor((checkout.bounds.top + checkout.bounds.bottom) / 2);
      await d.tap(x, y);
      expect((await d.currentApp())?.activity).toBe('com.example.shop.CheckoutActivity');
      // Off the rotated screen is still refused.
      await expect(d.tap(100, 1080)).rejects.toMatchObject({ status: 422, message: expect.stringContaining('2400×1080') });
      // A tool client's scale is against the rotated size: 1280 / 2400.
      const small = await d.screenshot({ format: 'jpeg', maxEdge: 1280 });
      const size = await d.screenSize();
      expect(small.width / size.width).toBeCloseTo(1280 / 2400, 3);
    } finally {
      phone.behaviour.rotation = 0;
    }
    // Back upright: the portrait size comes back, and a portrait tap works.
    expect(await d.screenSize()).toEqual({ width: 1080, height: 2400, density: 420 });
    await d.pressKey('BACK');
    expect((await d.currentApp())?.activity).toBe('com.example.shop.CatalogActivity');
  });
});

describe('a phone with several displays (a foldable, folded)', () => {
  test('the screenshot is of the display that is on, not the first one (which is off)', async () => {
    const folded = await startFakeAdb([{ serial: 'fold-1', behaviour: { physicalDisplays: [{ id: '4619827259835644672', on: false }, { id: '4619827259835644673', on: true }] } }]);
    try {
      const { driver } = await bootedAdb(t, [folded]);
      await driver.openApp('com.example.shop');
      const picture = await decode((await driver.screenshot()).data);
      expect(hex(picture.pixel(20, 150))).toBe(themeFor('com.example.shop').primary);
      expect(folded.devices.get('fold-1')!.commands).toContain('screencap -p -d 4619827259835644673');
    } finally {
      await folded.close();
    }
  });
});
