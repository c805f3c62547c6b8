// The simulated screen's picture agrees with its UI tree: buttons are drawn inside their
// bounds, a tap changes the next picture, typed text and focus show up where the field is.
import sharp from 'sharp';
import { ManualClock } from '../../../../src/lib/clock.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../../src/modules/devices/hosts/sim/catalogue.js';
import { themeFor } from '../../../../src/modules/devices/hosts/sim/render/palette.js';
import { ScreenRenderer } from '../../../../src/modules/devices/hosts/sim/render/raster.js';
import { viewToSvg } from '../../../../src/modules/devices/hosts/sim/render/svg.js';
import { createSimCatalogue } from '../../../../src/modules/devices/hosts/sim/catalogue.js';
import { bootState } from '../../../../src/modules/devices/hosts/sim/state.js';
import { buildView } from '../../../../src/modules/devices/hosts/sim/view.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';
import { decode, hex, near } from './helpers/pixels.js';
import { bootedSim, find, tapOn } from './helpers/sim.js';

let t: HostTestDb;
beforeAll(async () => {
  t = await openHostTestDb();
});
afterAll(() => t.close());

const theme = themeFor(DEMO_APP_PACKAGE);

test('PNG at the full size; JPEG scaled to max_edge; the same screen twice gives the same bytes', async () => {
  // A stopped clock: the status bar shows the time, so a minute turning between two pictures would change them.
  const { driver } = await bootedSim(t, { clock: new ManualClock(Date.parse('2026-03-02T10:00:30.000Z')) });
  const png = await driver.screenshot();
  expect(png).toMatchObject({ format: 'png', width: 1080, height: 2400 });
  expect(png.data.subarray(1, 4).toString()).toBe('PNG');
  expect(await decode(png.data)).toMatchObject({ width: 1080, height: 2400, format: 'png' });
  const jpeg = await driver.screenshot({ format: 'jpeg', maxEdge: 1280 });
  expect(jpeg).toMatchObject({ format: 'jpeg', width: 576, height: 1280 });
  expect(await decode(jpeg.data)).toMatchObject({ width: 576, height: 1280, format: 'jpeg' });
  expect((await driver.screenshot()).data.equals(png.data)).toBe(true);
  // Never scaled up.
  expect(await driver.screenshot({ maxEdge: 4096 })).toMatchObject({ width: 1080, height: 2400 });
});

test('a button is drawn inside its bounds and not outside; a dialog dims the screen beneath', async () => {
  const { driver } = await bootedSim(t);
  await driver.openApp(DEMO_APP_PACKAGE);
  const button = await find(driver, 'Checkout');
  const before = await decode((await driver.screenshot()).data);
  // Left edge of the button's face (clear of its centred label) and just above it.
  const inside: [number, number] = [button.bounds.left + 120, Math.floor((button.bounds.top + button.bounds.bottom) / 2)];
  const above: [number, number] = [button.bounds.left + 120, button.bounds.top - 20];
  expect(hex(before.pixel(...inside))).toBe(theme.primary);
  expect(hex(before.pixel(...above))).toBe(theme.background);
  // The toolbar is the app's colour, the status bar above it too.
  expect(hex(before.pixel(20, 150))).toBe(theme.primary);

  await tapOn(driver, 'Paper filters ×100');
  const after = await decode((await driver.screenshot()).data);
  const dimmed = after.pixel(...above);
  expect(dimmed.every((c, i) => c < before.pixel(...above)[i] - 40)).toBe(true);
  const panel = await find(driver, 'panel');
  expect(hex(after.pixel(panel.bounds.left + 60, panel.bounds.top + 40))).toBe('#FFFFFF');
});

test('typed text and the focused field show in the picture, exactly where the field is', async () => {
  const { driver } = await bootedSim(t);
  await driver.openApp(DEMO_APP_PACKAGE, { activity: '.CheckoutActivity' });
  const field = await find(driver, 'city');
  const other = await find(driver, 'street');
  const mid = Math.floor((field.bounds.top + 20 + field.bounds.bottom) / 2);
  const empty = await decode((await driver.screenshot()).data);
  expect(near(empty.pixel(field.bounds.left + 2, mid), theme.outline, 40)).toBe(true);

  await tapOn(driver, 'city');
  const focused = await decode((await driver.screenshot()).data);
  expect(hex(focused.pixel(field.bounds.left + 3, mid))).toBe(theme.primary);
  expect(focused.region(other.bounds).equals(empty.region(other.bounds))).toBe(true);

  await driver.typeText('Porto');
  const typed = await decode((await driver.screenshot()).data);
  expect(typed.region(field.bounds).equals(focused.region(field.bounds))).toBe(false);
  // Only the field changed: the rest of the form is as it was.
  expect(typed.region(other.bounds).equals(focused.region(other.bounds))).toBe(true);
  const above = { left: 0, top: 252, right: 1080, bottom: field.bounds.top - 40 };
  expect(typed.region(above).equals(empty.region(above))).toBe(true);
});

test('the home screen shows an icon where the tree says the app is, and a tap there opens it', async () => {
  const { driver } = await bootedSim(t);
  const icon = await find(driver, 'Corner Shop');
  const home = await decode((await driver.screenshot()).data);
  // The icon disc is the app's colour, centred at the top of its cell.
  const cx = Math.floor((icon.bounds.left + icon.bounds.right) / 2);
  expect(hex(home.pixel(cx - 50, icon.bounds.top + 102))).toBe(theme.primary);
  await driver.tap(cx, icon.bounds.top + 102);
  const app = await decode((await driver.screenshot()).data);
  expect(hex(app.pixel(20, 150))).toBe(theme.primary);
  expect((await driver.currentApp())?.package).toBe(DEMO_APP_PACKAGE);
});

test('drawing in cached bands leaves no seams: the picture matches the screen drawn whole', async () => {
  const catalogue = createSimCatalogue();
  const world = { state: bootState(0), installed: catalogue.preinstalled, catalogue, now: 0 };
  world.state.foreground = DEMO_APP_PACKAGE;
  world.state.tasks[DEMO_APP_PACKAGE] = ['catalog', 'product_beans', 'added_to_cart'];
  const view = buildView(world);
  for (const [maxEdge, width, height] of [[undefined, 1080, 2400], [1280, 576, 1280], [1000, 450, 1000]] as const) {
    const banded = await sharp((await new ScreenRenderer().render(view, { maxEdge })).data).raw().toBuffer();
    const whole = await sharp(Buffer.from(viewToSvg(view, width, height))).flatten({ background: '#ffffff' }).raw().toBuffer();
    expect(banded.length).toBe(whole.length);
    // Gradients and translucent layers may round one level differently; nothing more.
    let worst = 0;
    for (let i = 0; i < whole.length; i += 1) worst = Math.max(worst, Math.abs(whole[i] - banded[i]));
    expect(worst, `max_edge ${maxEdge}`).toBeLessThanOrEqual(maxEdge === 1000 ? 24 : 1);
  }
});
