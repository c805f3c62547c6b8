// Typing on a real phone. `input text` types ASCII only, so other text (é, ü, CJK, emoji) goes
// through the Appium Settings app's Unicode IME, installed on demand from the APK its npm
// package ships (nothing is downloaded). Long text goes in chunks, each with a time limit that
// grows with its length, and a chunk that times out is never sent again. Against the fake.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DeviceDriver } from '../../../../src/modules/devices/hosts/types.js';
import type { FakeAndroidDevice } from '../../../helpers/fake-adb/device.js';
import { STOCK_IME } from '../../../helpers/fake-adb/ime.js';
import type { FakeAdbServer } from '../../../helpers/fake-adb/server.js';
import { bootedAdb, startFakeAdb } from './helpers/adb.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';
import { find, tapOn } from './helpers/sim.js';

const SHOP = 'com.example.shop';
let t: HostTestDb;
let server: FakeAdbServer;
let phone: FakeAndroidDevice;
let d: DeviceDriver;

beforeAll(async () => {
  t = await openHostTestDb();
  server = await startFakeAdb([{ serial: 'emulator-5554' }]);
  phone = server.devices.get('emulator-5554')!;
  d = (await bootedAdb(t, [server], { driver: { commandTimeoutMs: 300, textMsPerChar: 1, uiDumpBackoffMs: 10 } })).driver;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

async function emptyField(name: string): Promise<void> {
  await d.closeApp(SHOP);
  await d.openApp(SHOP, { activity: '.CheckoutActivity' });
  await tapOn(d, name);
}

describe('text beyond ASCII', () => {
  test('is typed through the Unicode IME, installed on demand; the phone’s own keyboard comes back', async () => {
    expect(phone.installed.some((a) => a.package === 'io.appium.settings')).toBe(false);
    await emptyField('full_name');
    const text = 'Zoë Müller 日本 😀 & Co %s 100%';
    await d.typeText(text);
    expect((await find(d, 'full_name')).text).toBe(text);
    expect(phone.installed.find((a) => a.package === 'io.appium.settings')).toMatchObject({ version_name: '8.0.10' });
    expect(phone.settings.get('secure/default_input_method') ?? STOCK_IME).toBe(STOCK_IME);
    // Installed once: the next call finds it.
    const syncs = server.services.filter((s) => s.service === 'sync:').length;
    await d.typeText('\nRué');
    expect((await find(d, 'street')).text).toBe('Rué');
    expect(server.services.filter((s) => s.service === 'sync:').length).toBe(syncs);
  });
});

describe('long text', () => {
  test('goes in chunks whose time limit grows with their length: 1,000 characters on a slow phone', async () => {
    phone.behaviour.inputTextMsPerChar = 1;
    try {
      await emptyField('street');
      const text = 'The quick brown fox jumps over the lazy dog. '.repeat(23).slice(0, 1000);
      await d.typeText(text);
      expect((await find(d, 'street')).text).toBe(text);
    } finally {
      phone.behaviour.inputTextMsPerChar = 0;
    }
  });

  test('a chunk that times out is not sent again, nor is the rest; the error says how far it got', async () => {
    await emptyField('city');
    const text = 'abcdefghij'.repeat(25);
    phone.behaviour.stallInputText = { after: 1, ms: 1500 };
    await expect(d.typeText(text)).rejects.toMatchObject({ code: 'device_host_fault', message: expect.stringMatching(/100 of 250 characters/) });
    const typed = (await find(d, 'city')).text;
    expect(typed).toBe(text.slice(0, 200));
  });
});
