// The explorer on real simulated devices (the sim host on this run's database engine): every
// screen and transition of the demo app; the coverage of the generated Field Guide app within
// 300 actions with its destructive buttons never tapped; the do-not-touch list, stagnation,
// recorded paths that replay, and the limits.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { DAILY_FEED_PACKAGE, DEMO_APP_PACKAGE, demoApp, type DeviceDriver, FIELD_GUIDE_PACKAGE, fieldGuideApp, SimHost, type UiElement } from '../../../src/modules/devices/index.js';
import { DEFAULT_DO_NOT_TOUCH, doNotTouchMatcher } from '../../../src/modules/maps/explorer/do-not-touch.js';
import { Explorer, type ExploreOptions, replayPath } from '../../../src/modules/maps/explorer/explorer.js';
import { elementKeyOf } from '../../../src/modules/maps/explorer/screen-identity.js';
import type { ExploreResult } from '../../../src/modules/maps/explorer/types.js';
import { type HostTestDb, openHostTestDb } from '../devices/hosts/helpers/database.js';
import { trueGraph } from './helpers/true-graph.js';

let t: HostTestDb;
let host: SimHost;
beforeAll(async () => {
  t = await openHostTestDb();
  host = new SimHost({ db: t.db, bootMs: 0, apps: [fieldGuideApp()] });
});
afterAll(() => t.close());

async function bootedDriver(): Promise<DeviceDriver> {
  const id = await t.createDevice();
  await host.place(id);
  await host.boot(id);
  return host.driver(id);
}

/** Records every tap with the element under it, as the device reported it. */
function recording(driver: DeviceDriver, taps: UiElement[]): DeviceDriver {
  return new Proxy(driver, {
    get(target, name, receiver) {
      if (name === 'tap') {
        return async (x: number, y: number) => {
          const hit = await target.tap(x, y, { identify: true });
          if (hit) taps.push(hit);
          return hit;
        };
      }
      const value: unknown = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function explore(driver: DeviceDriver, pkg: string, options: Partial<ExploreOptions> = {}): Promise<ExploreResult> {
  return new Explorer(driver, { package: pkg, maxScreens: 500, deadline: Date.now() + 120_000, now: Date.now, doNotTouch: doNotTouchMatcher(DEFAULT_DO_NOT_TOUCH), ...options }).run();
}

const transitionKeys = (result: ExploreResult) => new Set(result.transitions.filter((tr) => tr.action.type === 'tap').map((tr) => `${tr.from}|${tr.action.type === 'tap' ? elementKeyOf(tr.action.element) : ''}|${tr.to}`));

describe('the demo app', () => {
  test('every screen reachable by taps and every transition between them; "Sign out" never tapped', async () => {
    const taps: UiElement[] = [];
    const driver = recording(await bootedDriver(), taps);
    const result = await explore(driver, DEMO_APP_PACKAGE);
    const truth = trueGraph(demoApp());
    expect(result.end).toBe('complete');
    expect(new Set(result.screens.map((s) => s.screen_id))).toEqual(truth.screens);
    const found = transitionKeys(result);
    for (const transition of truth.transitions) expect(found, transition).toContain(transition);
    // Three product pages share one layout: one screen, reached by three rows.
    expect(truth.screens.size).toBe(9);
    expect(taps.some((e) => e.text === 'Sign out')).toBe(false);
    expect(result.untouched.map((u) => u.phrase)).toEqual(['sign out']);
    // BACK transitions are recorded too (from a product page back to the catalogue).
    expect(result.transitions.some((tr) => tr.action.type === 'back')).toBe(true);
    const catalog = result.screens.find((s) => s.title === 'Corner Shop');
    expect(catalog?.path).toEqual([]);
    expect(result.screens.find((s) => s.title === 'Checkout')?.activity).toBe('com.example.shop.CheckoutActivity');
  });

  test("each screen's recorded path replays from a fresh start onto that screen", async () => {
    const driver = await bootedDriver();
    const result = await explore(driver, DEMO_APP_PACKAGE);
    for (const screen of result.screens) expect(await replayPath(driver, DEMO_APP_PACKAGE, screen.path), screen.title).toBe(screen.screen_id);
  });

  test('a do-not-touch list given per exploration replaces the default and is honoured', async () => {
    const taps: UiElement[] = [];
    const driver = recording(await bootedDriver(), taps);
    const result = await explore(driver, DEMO_APP_PACKAGE, { doNotTouch: doNotTouchMatcher(['check out', 'settings']) });
    expect(taps.filter((e) => /checkout|settings/i.test(`${e.text} ${e.resource_id}`))).toEqual([]);
    expect(result.screens.map((s) => s.title)).not.toContain('Checkout');
    // "Sign out" is no longer on the list: the account screen's button is tried.
    expect(taps.some((e) => e.text === 'Sign out')).toBe(true);
  });

  test('limits: max_screens, an action budget, a deadline and a stop end it early', async () => {
    const driver = await bootedDriver();
    expect(await explore(driver, DEMO_APP_PACKAGE, { maxScreens: 3 })).toMatchObject({ end: 'max_screens', screens: expect.any(Array) });
    expect((await explore(driver, DEMO_APP_PACKAGE, { maxScreens: 3 })).screens).toHaveLength(3);
    expect((await explore(driver, DEMO_APP_PACKAGE, { maxActions: 5 })).actions).toBe(5);
    expect((await explore(driver, DEMO_APP_PACKAGE, { deadline: 0 })).end).toBe('max_minutes');
    const stop = new AbortController();
    stop.abort();
    expect((await explore(driver, DEMO_APP_PACKAGE, { signal: stop.signal })).end).toBe('stopped');
  });
});

describe('the generated Field Guide app', () => {
  test('≥ 95 % of screens and ≥ 90 % of transitions within 300 actions; no destructive button tapped', async () => {
    const app = fieldGuideApp();
    const truth = trueGraph(app);
    expect(truth.screens.size).toBeGreaterThanOrEqual(60);
    const taps: UiElement[] = [];
    const driver = recording(await bootedDriver(), taps);
    const result = await explore(driver, FIELD_GUIDE_PACKAGE, { maxActions: 300 });
    const screens = new Set(result.screens.map((s) => s.screen_id));
    const found = transitionKeys(result);
    const screenCoverage = [...truth.screens].filter((s) => screens.has(s)).length / truth.screens.size;
    const transitionCoverage = [...truth.transitions].filter((tr) => found.has(tr)).length / truth.transitions.size;
    console.log(`Field Guide: ${result.actions} actions, screens ${screens.size}/${truth.screens.size} (${(screenCoverage * 100).toFixed(1)} %), transitions ${(transitionCoverage * 100).toFixed(1)} % of ${truth.transitions.size}, end ${result.end}`);
    expect(screenCoverage).toBeGreaterThanOrEqual(0.95);
    expect(transitionCoverage).toBeGreaterThanOrEqual(0.9);
    expect(result.actions).toBeLessThanOrEqual(300);
    // Nothing found that the truth does not have (no screen split in two).
    for (const s of screens) expect(truth.screens).toContain(s);
    // The destructive buttons were never tapped, and the screens behind them never seen.
    expect(taps.filter((e) => /delete|remove/i.test(`${e.text} ${e.resource_id}`))).toEqual([]);
    for (const s of truth.forbiddenOnly) expect(screens).not.toContain(s);
    expect(truth.forbiddenOnly.size).toBe(3);
    // Inert buttons were tried three times each, then left (the stagnation rule), never more.
    const prints = taps.filter((e) => e.text === 'Check for updates').length;
    expect(prints).toBeLessThanOrEqual(3);
  }, 60_000);
});

describe('Daily Feed: loading, a scrolling feed, an interrupting dialog, the keyboard', () => {
  test('waits out the loading, keeps the feed one screen, records "Rate Daily Feed" once and dismisses it, reaches the sign-in page past the keyboard', async () => {
    const clock = new ManualClock(Date.parse('2026-03-01T10:00:00Z'));
    const feedHost = new SimHost({ db: t.db, bootMs: 0, clock, seed: 11 });
    const id = await t.createDevice();
    await feedHost.place(id);
    await feedHost.boot(id);
    const driver = await feedHost.driver(id);
    // Two opens before: the explorer's first fresh start is the app's third open, when the dialog comes over the loading feed.
    await driver.openApp(DAILY_FEED_PACKAGE);
    await driver.openApp(DAILY_FEED_PACKAGE);
    let slept = 0;
    const result = await explore(driver, DAILY_FEED_PACKAGE, { sleep: async (ms) => { slept += ms; clock.advance(ms); } });
    expect(result.end).toBe('complete');
    const titles = result.screens.map((s) => s.title);
    // feed, post, saved post, the dialog, sign in, signed in: no loading screen among them, each once.
    expect(new Set(titles)).toEqual(new Set(['Daily Feed', 'Post', 'Rate Daily Feed', 'Sign in', 'Account']));
    expect(titles.filter((title) => title === 'Rate Daily Feed')).toHaveLength(1);
    expect(result.screens).toHaveLength(6);
    expect(slept).toBeGreaterThan(0);
    // The dialog came over the first screen on a fresh start and BACK dismissed it back to the feed.
    const feed = result.screens.find((s) => s.title === 'Daily Feed');
    const dialog = result.screens.find((s) => s.title === 'Rate Daily Feed');
    expect(result.transitions).toContainEqual({ from: dialog?.screen_id, to: feed?.screen_id, action: { type: 'back', element: null } });
    // Sign-in is reached past the keyboard: the button it covers was tapped.
    const signIn = result.screens.find((s) => s.title === 'Sign in');
    const account = result.screens.find((s) => s.title === 'Account');
    expect(result.transitions.some((tr) => tr.from === signIn?.screen_id && tr.to === account?.screen_id && tr.action.element?.text === 'Sign in')).toBe(true);
    expect(await replayPath(driver, DAILY_FEED_PACKAGE, account?.path ?? [])).toBeDefined();
  }, 120_000);
});
