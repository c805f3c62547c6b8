// How long the simulated host takes per action, on this engine. "Changed" screenshots follow
// a change of the screen (a typed character): the image cache misses and the bands the field
// crosses are drawn again; "unchanged" ones repeat the same screen; "nothing cached" is a
// fresh renderer drawing every band. The bounds are generous (several times the targets of issue
// 10: PNG p50 < 60 ms, JPEG 1280 px p50 < 40 ms, tap p50 < 5 ms) so a busy machine passes,
// while a real regression (a render in the seconds, a tap doing heavy work) fails.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../src/modules/devices/hosts/sim/catalogue.js';
import { ScreenRenderer } from '../../src/modules/devices/hosts/sim/render/raster.js';
import { SimHost } from '../../src/modules/devices/hosts/sim/sim-host.js';
import { ENGINE } from '../../test/helpers/engine.js';
import { type HostTestDb, openHostTestDb } from '../../test/modules/devices/hosts/helpers/database.js';
import { measure, report } from './measure.js';
import { bootedSim, tapOn } from '../../test/modules/devices/hosts/helpers/sim.js';

let t: HostTestDb;
beforeAll(async () => {
  t = await openHostTestDb();
});
afterAll(() => t.close());

test('screenshot, tap and UI tree latencies', async () => {
  const { driver, id } = await bootedSim(t);
  await driver.openApp(DEMO_APP_PACKAGE, { activity: '.CheckoutActivity' });
  await tapOn(driver, 'full_name');
  await driver.screenshot();
  const pngChanged = await measure(30, async (i) => {
    await driver.typeText(String.fromCharCode(97 + (i % 26)));
    await driver.screenshot();
  });
  const jpegChanged = await measure(30, async (i) => {
    await driver.typeText(String.fromCharCode(65 + (i % 26)));
    await driver.screenshot({ format: 'jpeg', maxEdge: 1280 });
  });
  const typeOnly = await measure(30, (i) => driver.typeText(String.fromCharCode(48 + (i % 10))));
  const pngSame = await measure(30, () => driver.screenshot());
  const jpegSame = await measure(30, () => driver.screenshot({ format: 'jpeg', maxEdge: 1280 }));
  // Each tap moves focus between two fields: a real change, written to the database.
  const tap = await measure(100, (i) => driver.tap(540, i % 2 ? 474 : 678));
  const tree = await measure(100, () => driver.uiTree());
  // Nothing cached: a new renderer each time (a process's first picture of a screen).
  const cold = await measure(10, async () => {
    const fresh = new SimHost({ db: t.db, bootMs: 0, renderer: new ScreenRenderer() });
    await (await fresh.driver(id)).screenshot();
  });
  report(`sim host on ${ENGINE}`, {
    'PNG 1080×2400, screen changed*': pngChanged,
    'JPEG 1280 px, screen changed*': jpegChanged,
    '(* includes this typeText)': typeOnly,
    'PNG, unchanged screen': pngSame,
    'JPEG 1280 px, unchanged screen': jpegSame,
    'tap (changes focus)': tap,
    'UI tree': tree,
    'PNG, nothing cached': cold,
  });
  expect(pngChanged.p50).toBeLessThan(240);
  expect(jpegChanged.p50).toBeLessThan(160);
  expect(tap.p50).toBeLessThan(20);
  expect(tree.p50).toBeLessThan(20);
  expect(cold.p50).toBeLessThan(400);
});
