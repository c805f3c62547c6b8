// How long the adb driver takes per action through the fake ADB server (a TCP round trip
// per command, adbkit's protocol handling, the simulated phone's own work). Real phones add
// their own time (screencap ~100–500 ms, uiautomator ~1 s); this measures our side. Bounds
// are generous, to catch a regression rather than a busy machine.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ENGINE } from '../../test/helpers/engine.js';
import type { FakeAdbServer } from '../../test/helpers/fake-adb/server.js';
import { adbHostFor, startFakeAdb } from '../../test/modules/devices/hosts/helpers/adb.js';
import { type HostTestDb, openHostTestDb } from '../../test/modules/devices/hosts/helpers/database.js';
import { measure, report } from './measure.js';

let t: HostTestDb;
let server: FakeAdbServer;
beforeAll(async () => {
  t = await openHostTestDb();
  server = await startFakeAdb([{ serial: 'emulator-5554' }]);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

test('screenshot, tap and UI tree through the fake ADB server', async () => {
  const host = adbHostFor(t.db, [server]);
  const id = await t.createDevice();
  await host.place(id);
  await host.boot(id);
  const d = await host.driver(id);
  await d.openApp('com.example.shop', { activity: '.CheckoutActivity' });
  await d.tap(540, 474);
  const png = await measure(20, async (i) => {
    await d.typeText(String.fromCharCode(97 + (i % 26)));
    await d.screenshot();
  });
  const jpeg = await measure(20, async (i) => {
    await d.typeText(String.fromCharCode(65 + (i % 26)));
    await d.screenshot({ format: 'jpeg', maxEdge: 1280 });
  });
  const typing = await measure(20, (i) => d.typeText(String.fromCharCode(48 + (i % 10))));
  const tap = await measure(60, (i) => d.tap(540, i % 2 ? 474 : 678));
  const tree = await measure(30, () => d.uiTree());
  const driverLookup = await measure(30, () => host.driver(id));
  report(`adb host through the fake ADB server (${ENGINE})`, {
    'PNG 1080×2400, screen changed*': png,
    'JPEG 1280 px, screen changed*': jpeg,
    '(* includes this typeText)': typing,
    'tap': tap,
    'UI tree (uiautomator dump + cat)': tree,
    'host.driver(id) (placement read)': driverLookup,
  });
  expect(png.p50).toBeLessThan(400);
  expect(jpeg.p50).toBeLessThan(400);
  expect(tap.p50).toBeLessThan(50);
  expect(tree.p50).toBeLessThan(100);
});
