// The screen a simulated input found, undrawn (`screenFoundByInput`, the trace's "before"
// frame at no cost on the input's path): drawn later it is the very picture a screenshot took
// just before the input, and its key names pictures, so two moments with one key show the same
// pixels, on Daily Feed's loading spinner, appearing and hiding elements, dialog over a screen,
// scrolled feed and keyboard. A key leaves out what a picture does not show (when a screen was
// entered), so going back to a screen finds the key it had.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ManualClock } from '../../../../src/lib/clock.js';
import { frameOfScreen, TRACE_FRAME } from '../../../../src/modules/devices/index.js';
import { DAILY_FEED_PACKAGE, DEMO_APP_PACKAGE } from '../../../../src/modules/devices/hosts/index.js';
import type { DeviceDriver } from '../../../../src/modules/devices/hosts/types.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';
import { bootedSim, tapOn } from './helpers/sim.js';

let t: HostTestDb;
beforeAll(async () => {
  t = await openHostTestDb();
});
afterAll(async () => {
  await t.close();
});

/** The screen the driver's last input found. */
const foundByLastInput = (driver: DeviceDriver) => driver.screenFoundByInput?.(driver.inputsBegun!());

/** Takes a screenshot, then makes an input that changes nothing (a volume key) and compares what it found with the screenshot. */
async function probe(driver: DeviceDriver, pictures: Map<string, string>, label: string): Promise<string> {
  const shot = await driver.screenshot(TRACE_FRAME);
  await driver.pressKey('VOLUME_UP');
  const found = foundByLastInput(driver);
  expect(found, label).toBeDefined();
  const drawn = await found!.draw(TRACE_FRAME);
  const [taken, later] = await Promise.all([frameOfScreen(shot.data), frameOfScreen(drawn.data)]);
  expect(later.id, `${label}: the undrawn screen, drawn, is the screenshot`).toBe(taken.id);
  expect(found!.key, label).not.toBeNull();
  const earlier = pictures.get(found!.key!);
  if (earlier !== undefined) expect(taken.id, `${label}: one key, one picture`).toBe(earlier);
  pictures.set(found!.key!, taken.id);
  return found!.key!;
}

test('drawn later, it is the screenshot taken before the input; one key is one picture, through Daily Feed’s moving screens', async () => {
  const clock = new ManualClock(Date.parse('2026-11-28T10:00:30.000Z'));
  const { driver } = await bootedSim(t, { clock, seed: 7 });
  const pictures = new Map<string, string>();
  const keys: string[] = [];
  const look = async (label: string) => keys.push(await probe(driver, pictures, label));

  await look('home');
  // Loading: the spinner turns every 100 ms; each moment is its own picture.
  await driver.openApp(DAILY_FEED_PACKAGE);
  for (let i = 0; i < 4; i++) {
    await look(`loading ${i}`);
    clock.advance(100);
  }
  clock.advance(2600);
  await look('feed loaded');
  await driver.swipe(540, 1900, 540, 900, 300);
  await look('feed scrolled');
  // A post: its comments line appears after 1.2 s.
  await tapOn(driver, (await driver.uiTree()).find((e) => e.resource_id.endsWith(':id/post_title'))!.text);
  // Through its loading and the moment its comments line appears, a look every 300 ms.
  for (let ms = 0; ms <= 4200; ms += 300) {
    await look(`post at ${ms} ms`);
    clock.advance(300);
  }
  // Saved: a snackbar that hides after 2.5 s.
  await tapOn(driver, 'Save post');
  for (let ms = 0; ms <= 6000; ms += 500) {
    await look(`saved at ${ms} ms`);
    clock.advance(500);
  }
  await driver.pressKey('BACK');
  await look('back on the post');
  // The rating dialog over the feed, every third open.
  for (let open = 0; open < 3; open++) {
    await driver.pressKey('HOME');
    await driver.openApp(DAILY_FEED_PACKAGE);
    clock.advance(2600);
    await look(`opened again (${open + 1})`);
  }
  expect((await driver.uiTree()).some((e) => e.text === 'Not now')).toBe(true);
  // A field with the keyboard up.
  await driver.pressKey('BACK');
  await driver.pressKey('BACK');
  await look('back on the feed');
  await tapOn(driver, 'Account');
  clock.advance(2600);
  await tapOn(driver, 'email');
  await driver.typeText('reader@example.com');
  await look('keyboard and typed text');
  // The clock's minute is on the status bar.
  clock.advance(60_000);
  await look('a minute later');

  expect(new Set(pictures.values()).size).toBeGreaterThanOrEqual(10);
});

test('going back to a screen finds the key it had: when a screen was entered is not part of it', async () => {
  const clock = new ManualClock(Date.parse('2026-11-28T10:00:05.000Z'));
  const { driver } = await bootedSim(t, { clock, seed: 7 });
  const pictures = new Map<string, string>();
  await driver.openApp(DEMO_APP_PACKAGE);
  const catalogue = await probe(driver, pictures, 'the shop');
  await tapOn(driver, 'Ceramic mug');
  clock.advance(500);
  const mug = await probe(driver, pictures, 'the mug');
  await driver.pressKey('BACK');
  clock.advance(500);
  expect(await probe(driver, pictures, 'the shop again')).toBe(catalogue);
  expect(mug).not.toBe(catalogue);
});

test('an input refused before it looked leaves no screen behind', async () => {
  const { driver } = await bootedSim(t, { seed: 7 });
  await driver.pressKey('VOLUME_UP');
  expect(foundByLastInput(driver)).toBeDefined();
  // Refused by its checks before it read the state: the previous input's screen is not offered as this one's.
  await expect(driver.tap(-1, 5)).rejects.toMatchObject({ code: 'validation_failed' });
  expect(foundByLastInput(driver)).toBeUndefined();
  // Refused after it looked (the app is not installed): the screen it found is there.
  await expect(driver.openApp('com.example.not.installed')).rejects.toThrow();
  expect(foundByLastInput(driver)).toBeDefined();
});

test('the screen an input left is the screenshot taken right after it, and stays that moment whoever drives the device next', async () => {
  const clock = new ManualClock(Date.parse('2026-11-28T10:00:05.000Z'));
  const { host, id, driver } = await bootedSim(t, { clock, seed: 7 });
  const frameOf = async (screen: { draw: (o: typeof TRACE_FRAME) => Promise<{ data: Buffer }> }) => (await frameOfScreen((await screen.draw(TRACE_FRAME)).data)).id;
  await driver.openApp(DEMO_APP_PACKAGE);
  await tapOn(driver, 'Ceramic mug');
  const left = driver.screenAfterLastInput?.();
  expect(left?.key).toEqual(expect.any(String));
  const shot = await frameOfScreen((await driver.screenshot(TRACE_FRAME)).data);
  expect(await frameOf(left!)).toBe(shot.id);
  // Not the screen the tap found: the shop's list.
  expect(await frameOf(foundByLastInput(driver)!)).not.toBe(shot.id);
  // Another driver goes back; this one's last input still left the mug's page.
  await (await host.driver(id)).pressKey('BACK');
  expect(await frameOf(left!)).toBe(shot.id);
  expect(await frameOf(driver.screenAfterLastInput!()!)).toBe(shot.id);
  expect(await frameOfScreen((await driver.screenshot(TRACE_FRAME)).data)).not.toEqual(shot);
  // A refused input leaves none, whether refused before or after it looked.
  await expect(driver.tap(-1, 5)).rejects.toMatchObject({ code: 'validation_failed' });
  expect(driver.screenAfterLastInput?.()).toBeUndefined();
  await driver.pressKey('VOLUME_UP');
  expect(driver.screenAfterLastInput?.()).toBeDefined();
  await expect(driver.openApp('com.example.not.installed')).rejects.toThrow();
  expect(driver.screenAfterLastInput?.()).toBeUndefined();
});

test('inputs are counted and the screen each found is kept by number, the last 16 of them', async () => {
  const { driver } = await bootedSim(t, { seed: 7 });
  const start = driver.inputsBegun!();
  const home = await frameOfScreen((await driver.screenshot(TRACE_FRAME)).data);
  await driver.openApp(DEMO_APP_PACKAGE);
  await tapOn(driver, 'Ceramic mug');
  expect(driver.inputsBegun!()).toBe(start + 2);
  // The first of the two found the home screen, not the shop the second found.
  const first = driver.screenFoundByInput!(start + 1)!;
  expect((await frameOfScreen((await first.draw(TRACE_FRAME)).data)).id).toBe(home.id);
  expect(driver.screenFoundByInput!(start + 2)!.key).not.toBe(first.key);
  for (let i = 0; i < 15; i++) await driver.pressKey('VOLUME_UP');
  expect(driver.screenFoundByInput!(start + 1)).toBeUndefined();
  expect(driver.screenFoundByInput!(start + 2)).toBeDefined();
  expect(driver.screenFoundByInput!(driver.inputsBegun!() + 1)).toBeUndefined();
});
