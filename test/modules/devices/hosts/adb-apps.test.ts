// Opening apps on a real phone: `am start` with its arguments quoted word by word (an inner
// class `.Outer$Inner` reaches the device whole), its answer read as Android writes it, and
// apps opened through their launcher activity, so devices without hardware keys (where
// monkey aborts) open them too. Against the fake ADB server.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DeviceDriver } from '../../../../src/modules/devices/hosts/types.js';
import { NOT_EXPORTED, NOTES_PACKAGE, notesApp } from '../../../helpers/fake-adb/apps.js';
import type { FakeAndroidDevice } from '../../../helpers/fake-adb/device.js';
import type { FakeAdbServer } from '../../../helpers/fake-adb/server.js';
import { bootedAdb, startFakeAdb } from './helpers/adb.js';
import { buildApk } from './helpers/build-apk.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';

let t: HostTestDb;
let server: FakeAdbServer;
let phone: FakeAndroidDevice;
let d: DeviceDriver;

beforeAll(async () => {
  t = await openHostTestDb();
  server = await startFakeAdb([{ serial: 'emulator-5554', apps: [notesApp], notExported: NOT_EXPORTED }]);
  phone = server.devices.get('emulator-5554')!;
  d = (await bootedAdb(t, [server])).driver;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe('am start with an activity', () => {
  test('an inner class ($ in its name) reaches the device whole', async () => {
    await d.openApp(NOTES_PACKAGE, { activity: '.Outer$Inner' });
    expect(await d.currentApp()).toEqual({ package: NOTES_PACKAGE, activity: `${NOTES_PACKAGE}.Outer$Inner` });
  });

  test('an activity whose name holds "Error" opens; a missing one is refused with the device’s reason', async () => {
    await d.openApp(NOTES_PACKAGE, { activity: '.ErrorReportActivity' });
    expect(await d.currentApp()).toEqual({ package: NOTES_PACKAGE, activity: `${NOTES_PACKAGE}.ErrorReportActivity` });
    await expect(d.openApp(NOTES_PACKAGE, { activity: '.Missing' })).rejects.toMatchObject({ status: 422, message: expect.stringContaining('does not exist') });
  });

  test('an activity the app does not export is refused (SecurityException), and nothing changes', async () => {
    await d.openApp(NOTES_PACKAGE, { activity: '.NotesActivity' });
    await expect(d.openApp(NOTES_PACKAGE, { activity: '.SecretActivity' })).rejects.toMatchObject({ status: 422, message: expect.stringContaining('has not exported it') });
    expect(await d.currentApp()).toEqual({ package: NOTES_PACKAGE, activity: `${NOTES_PACKAGE}.NotesActivity` });
    expect(phone.commands.some((c) => c.includes('SecretActivity'))).toBe(true);
  });
});

describe('opening an app by its package', () => {
  test('a device without hardware keys opens it (through its launcher activity, not monkey), and a running app comes back where it was', async () => {
    phone.behaviour.noHardwareKeys = true;
    const before = phone.commands.length;
    try {
      await d.closeApp('com.example.shop');
      await d.openApp('com.example.shop');
      expect(await d.currentApp()).toEqual({ package: 'com.example.shop', activity: 'com.example.shop.CatalogActivity' });
      await d.openApp('com.example.shop', { activity: '.CheckoutActivity' });
      await d.pressKey('HOME');
      await d.openApp('com.example.shop');
      expect(await d.currentApp()).toEqual({ package: 'com.example.shop', activity: 'com.example.shop.CheckoutActivity' });
      expect(phone.commands.slice(before).filter((c) => c.includes('monkey'))).toEqual([]);
    } finally {
      phone.behaviour.noHardwareKeys = false;
    }
  });

  test('without `cmd` (Android 6 and older) monkey is the fallback, told not to press system keys', async () => {
    phone.behaviour.noHardwareKeys = true;
    phone.behaviour.hasCmd = false;
    try {
      const before = phone.commands.length;
      await d.openApp(NOTES_PACKAGE);
      expect(await d.currentApp()).toMatchObject({ package: NOTES_PACKAGE });
      expect(phone.commands.slice(before).find((c) => c.includes('monkey'))).toMatch(/--pct-syskeys'? '?0'? '?1/);
      await expect(d.openApp('com.example.nothere')).rejects.toMatchObject({ status: 404, code: 'app_not_installed' });
    } finally {
      phone.behaviour.noHardwareKeys = false;
      phone.behaviour.hasCmd = true;
    }
  });
});

describe('installing', () => {
  test('as Android Studio does (-r -t -g): a test-only APK installs, runtime permissions are granted, and a reinstall replaces it', async () => {
    const apk = await buildApk({ package: 'org.example.debugbuild', label: 'Debug Build', versionName: '0.1-debug', versionCode: 1, testOnly: true });
    expect(await d.installApk(apk)).toMatchObject({ package: 'org.example.debugbuild', version_code: 1 });
    expect(phone.grantedAtInstall.get('org.example.debugbuild')).toBe(true);
    await d.installApk(apk);
    expect(phone.installed.filter((a) => a.package === 'org.example.debugbuild')).toHaveLength(1);
  });
});

describe('the app in front', () => {
  test('with a second display listed first and the notification shade focused, it is the main display’s app, cross-checked', async () => {
    await d.closeApp('com.example.shop');
    await d.openApp('com.example.shop');
    const shop = { package: 'com.example.shop', activity: 'com.example.shop.CatalogActivity' };
    phone.behaviour.secondDisplay = { package: 'com.example.cast', activity: '.PresentationActivity' };
    phone.behaviour.systemWindowFocused = true;
    try {
      expect(await d.currentApp()).toEqual(shop);
      phone.behaviour.systemWindowFocused = false;
      expect(await d.currentApp()).toEqual(shop);
    } finally {
      phone.behaviour.secondDisplay = null;
      phone.behaviour.systemWindowFocused = false;
    }
  });
});

describe('the app list', () => {
  test('third-party apps with their version codes from pm list packages -3 --show-versioncode; versions from a dump filtered on the phone; labels of APKs the service installed', async () => {
    const before = phone.commands.length;
    const apps = await d.listApps();
    expect(apps).toContainEqual({ package: 'com.example.shop', label: 'com.example.shop', version_name: '2.4.1' });
    expect(apps).toContainEqual({ package: NOTES_PACKAGE, label: NOTES_PACKAGE, version_name: '3.1' });
    expect(apps).toContainEqual({ package: 'org.example.debugbuild', label: 'Debug Build', version_name: '0.1-debug' });
    expect(apps.map((a) => a.package)).not.toContain('com.android.settings');
    const sent = phone.commands.slice(before);
    expect(sent[0]).toBe('pm list packages -3 --show-versioncode');
    expect(sent.filter((c) => c.startsWith('dumpsys package')).every((c) => c.includes('| grep'))).toBe(true);
  });
});
