// The production adb driver, unchanged, against the fake ADB server and its simulated phone:
// the screenshot is the phone's PNG and shows what the UI tree says, taps and typed text
// land, the UI dump is retried on the idle-state error, APKs are pushed over sync and installed.
import { createReadStream, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'shell-quote';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DeviceDriver } from '../../../../src/modules/devices/hosts/types.js';
import { themeFor } from '../../../../src/modules/devices/hosts/sim/render/palette.js';
import type { FakeAndroidDevice } from '../../../helpers/fake-adb/device.js';
import type { FakeAdbServer } from '../../../helpers/fake-adb/server.js';
import { adbHostFor, startFakeAdb } from './helpers/adb.js';
import { buildApk } from './helpers/build-apk.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';
import { decode, hex } from './helpers/pixels.js';
import { centre, find, tapOn } from './helpers/sim.js';

const SHOP = 'com.example.shop';
let t: HostTestDb;
let server: FakeAdbServer;
let phone: FakeAndroidDevice;
let d: DeviceDriver;

beforeAll(async () => {
  t = await openHostTestDb();
  server = await startFakeAdb([{ serial: 'emulator-5554' }]);
  phone = server.devices.get('emulator-5554')!;
  const host = adbHostFor(t.db, [server]);
  const id = await t.createDevice();
  await host.place(id);
  await host.boot(id);
  d = await host.driver(id);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe('seeing', () => {
  test('the screenshot is the phone’s PNG, and a button is drawn where the UI tree puts it', async () => {
    await d.openApp(SHOP);
    const shot = await d.screenshot();
    expect(shot).toMatchObject({ format: 'png', width: 1080, height: 2400 });
    const picture = await decode(shot.data);
    expect(picture).toMatchObject({ width: 1080, height: 2400, format: 'png' });
    const button = await find(d, 'Checkout');
    expect(button).toMatchObject({ class: 'android.widget.Button', clickable: true, bounds: { left: 48, top: 2169, right: 1032, bottom: 2313 } });
    expect(hex(picture.pixel(button.bounds.left + 120, button.bounds.top + 70))).toBe(themeFor(SHOP).primary);
    expect(hex(picture.pixel(button.bounds.left + 120, button.bounds.top - 20))).toBe(themeFor(SHOP).background);
    const jpeg = await d.screenshot({ format: 'jpeg', maxEdge: 1280 });
    expect(await decode(jpeg.data)).toMatchObject({ width: 576, height: 1280, format: 'jpeg' });
  });

  test('the UI tree nests rows like a real dump; ids are index paths; the idle-state error is retried', async () => {
    await d.openApp(SHOP);
    phone.uiDumpIdleFailures = 2;
    const before = phone.commands.length;
    const tree = await d.uiTree();
    expect(phone.commands.slice(before).filter((c) => c.startsWith('uiautomator dump'))).toHaveLength(3);
    const row = tree.find((e) => e.resource_id === `${SHOP}:id/row_beans`)!;
    const name = tree.find((e) => e.text === 'Espresso beans')!;
    expect(name.element_id.startsWith(`${row.element_id}.`)).toBe(true);
    expect(row).toMatchObject({ class: 'android.widget.LinearLayout', clickable: true, editable: false, focused: false });
    // Every dump file was removed from the phone.
    expect([...phone.files.keys()].filter((f) => f.includes('svc-ui-'))).toEqual([]);
    phone.uiDumpIdleFailures = 10;
    await expect(d.uiTree()).rejects.toMatchObject({ code: 'device_host_fault', message: expect.stringContaining('could not get idle state') });
    phone.uiDumpIdleFailures = 0;
  });

  test('current app and the app list', async () => {
    await d.openApp(SHOP);
    expect(await d.currentApp()).toEqual({ package: SHOP, activity: `${SHOP}.CatalogActivity` });
    // Third-party apps only; no label is known for an app the service did not install.
    expect(await d.listApps()).toContainEqual({ package: SHOP, label: SHOP, version_name: '2.4.1' });
    expect((await d.listApps()).map((a) => a.package)).not.toContain('com.android.settings');
  });
});

describe('touching', () => {
  test('a tap changes the next screenshot; identify reports the element hit', async () => {
    await d.closeApp(SHOP);
    await d.openApp(SHOP);
    const before = await decode((await d.screenshot()).data);
    const [x, y] = centre(await find(d, 'row_beans'));
    expect(await d.tap(x, y, { identify: true })).toMatchObject({ resource_id: `${SHOP}:id/row_beans`, clickable: true });
    const after = await decode((await d.screenshot()).data);
    const photoArea = { left: 48, top: 300, right: 1032, bottom: 1000 };
    expect(after.region(photoArea).equals(before.region(photoArea))).toBe(false);
    expect((await find(d, 'title')).text).toBe('Espresso beans');
    expect(await d.tap(5, 2000)).toBeNull();
    await d.pressKey('BACK');
    expect((await find(d, 'title')).text).toBe('Corner Shop');
  });

  test('hostile text reaches the field exactly: spaces, quotes, shell operators, %s, newlines', async () => {
    await d.openApp(SHOP, { activity: '.CheckoutActivity' });
    await tapOn(d, 'full_name');
    const sent = phone.commands.length;
    const hostile = `O'Brien "Jr" $(reboot); rm -rf / && echo \`id\` | cat > /x %s 100% \\ ~*?[]{}<>#!`;
    await d.typeText(hostile);
    const typed = phone.commands.length;
    expect((await find(d, 'full_name')).text).toBe(hostile);
    // No second command ran: every text line the phone's shell got is one `input text <arg>`, no operators.
    const typing = phone.commands.slice(sent, typed).map((line) => parse(line));
    expect(typing.length).toBeGreaterThan(1);
    for (const words of typing) {
      expect(words).toHaveLength(3);
      expect(words.slice(0, 2)).toEqual(['input', 'text']);
      expect(typeof words[2]).toBe('string');
    }
    await d.typeText('\nLine two');
    expect((await find(d, 'street')).text).toBe('Line two');
    // Control characters are refused; other non-ASCII goes through the Unicode IME (adb-typing.test.ts).
    await expect(d.typeText('bell\u0007')).rejects.toMatchObject({ status: 422, message: expect.stringContaining('control characters') });
  });

  test('keys, swipes, open and close', async () => {
    await d.openApp(SHOP);
    await d.swipe(540, 2390, 540, 1400, 200);
    expect((await d.currentApp())?.package).toBe('com.android.launcher3');
    await d.openApp(SHOP);
    await d.pressKey('HOME');
    await d.pressKey('KEYCODE_APP_SWITCH');
    expect((await d.currentApp())?.package).toBe(SHOP);
    await expect(d.openApp('com.example.nothere')).rejects.toMatchObject({ status: 404, code: 'app_not_installed' });
    await expect(d.openApp(SHOP, { activity: '.Missing' })).rejects.toMatchObject({ status: 422 });
    await expect(d.pressKey('NOPE')).rejects.toMatchObject({ status: 422 });
    await expect(d.tap(2000, 10)).rejects.toMatchObject({ status: 422 });
    await d.closeApp(SHOP);
    expect((await d.currentApp())?.package).toBe('com.android.launcher3');
  });
});

describe('installing', () => {
  test('an APK is pushed over sync, installed with pm, labelled from its manifest, and removed from the phone', async () => {
    const apk = await buildApk({ package: 'org.example.field', label: 'Field Guide', versionName: '2.0', versionCode: 20 });
    expect(await d.installApk(createReadStream(apk))).toEqual({ package: 'org.example.field', label: 'Field Guide', version_name: '2.0', version_code: 20 });
    expect(server.services.some((s) => s.service === 'sync:')).toBe(true);
    expect(await d.listApps()).toContainEqual({ package: 'org.example.field', label: 'Field Guide', version_name: '2.0' });
    expect([...phone.files.keys()].filter((f) => f.endsWith('.apk'))).toEqual([]);
    await d.openApp('org.example.field');
    expect(await d.currentApp()).toEqual({ package: 'org.example.field', activity: 'org.example.field.MainActivity' });
  });

  test('a file that is not an APK is refused before anything reaches the phone', async () => {
    const junk = join(tmpdir(), `junk-${process.pid}.apk`);
    writeFileSync(junk, 'not a zip');
    const syncs = server.services.filter((s) => s.service === 'sync:').length;
    await expect(d.installApk(junk)).rejects.toMatchObject({ status: 422, code: 'invalid_apk' });
    expect(server.services.filter((s) => s.service === 'sync:').length).toBe(syncs);
  });
});
