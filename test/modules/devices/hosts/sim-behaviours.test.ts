// The behaviours of §15 on the simulated host, from a small description made for each: a
// screen that loads, elements that appear and hide, a scrolling list, an interrupt, the
// keyboard. Time is the host's injected clock: nothing here sleeps.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../../../src/lib/clock.js';
import type { DeviceDriver } from '../../../../src/modules/devices/hosts/types.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';
import { bootedSim, centre, find } from './helpers/sim.js';

const PKG = 'com.example.behave';
const el = (id: string, top: number, extra: object = {}) => ({ id, class: 'android.widget.TextView', text: id, resource_id: `${PKG}:id/${id}`, content_desc: '', bounds: { left: 0, top, right: 1080, bottom: top + 200 }, clickable: false, editable: false, ...extra });
const screen = (id: string, elements: object[], extra: object = {}) => ({ id, title: id, activity: `${PKG}.${id}`, elements, ...extra });

const app = {
  package: PKG,
  label: 'Behave',
  interrupts: [{ screen: 'nag', every_opens: 2 }],
  screens: [
    screen('start', [el('to_slow', 300, { clickable: true, to: 'slow' }), el('to_list', 600, { clickable: true, to: 'list' }), el('to_form', 900, { clickable: true, to: 'form' })]),
    screen('slow', [el('later', 300, { appear_after_ms: 1000 }), el('toast', 600, { hide_after_ms: 2000 }), el('always', 900, { clickable: true, to: 'back' })], { loading_ms: { min: 500, max: 500 } }),
    screen('list', [el('head', 84), ...Array.from({ length: 30 }, (_, i) => el(`row_${i}`, 300 + i * 200, { clickable: true, to: 'form' })), el('bar', 2200, { fixed: true })], { scroll: { top: 300, bottom: 2200 } }),
    screen('form', [el('name', 300, { class: 'android.widget.EditText', editable: true }), el('email', 600, { class: 'android.widget.EditText', editable: true }), el('submit', 2000, { class: 'android.widget.Button', clickable: true, to: 'start' })]),
    screen('nag', [el('panel', 900, { class: 'android.widget.LinearLayout', bounds: { left: 100, top: 900, right: 980, bottom: 1500 } }), el('nag_text', 950, { bounds: { left: 150, top: 950, right: 930, bottom: 1100 } }), el('not_now', 1300, { class: 'android.widget.Button', clickable: true, to: 'back', bounds: { left: 150, top: 1300, right: 930, bottom: 1450 } })]),
  ],
};

let t: HostTestDb;
const clock = new ManualClock(Date.parse('2026-03-01T10:00:00Z'));
beforeAll(async () => {
  t = await openHostTestDb();
});
afterAll(() => t.close());

async function device(): Promise<DeviceDriver> {
  return (await bootedSim(t, { apps: [app], clock, seed: 7 })).driver;
}
const ids = async (d: DeviceDriver) => (await d.uiTree()).map((e) => e.element_id);
async function tapId(d: DeviceDriver, id: string) {
  const [x, y] = centre(await find(d, id));
  return d.tap(x, y);
}

describe('loading, appearing and hiding', () => {
  test('a loading screen is one ProgressBar and ignores taps; then elements appear and a toast hides on the screen’s own clock', async () => {
    const d = await device();
    await d.openApp(PKG);
    await tapId(d, 'to_slow');
    expect(await d.uiTree()).toEqual([{ element_id: 'progress', class: 'android.widget.ProgressBar', text: '', resource_id: 'android:id/progress', content_desc: '', bounds: { left: 472, top: 1132, right: 608, bottom: 1268 }, clickable: false, editable: false, scrollable: false, focused: false }]);
    // Where "always" will be: the tap lands on nothing and changes nothing.
    expect(await d.tap(540, 1000)).toBeNull();
    clock.advance(499);
    expect(await ids(d)).toEqual(['progress']);
    clock.advance(1);
    expect(await ids(d)).toEqual(['toast', 'always']);
    clock.advance(1000);
    expect(await ids(d)).toEqual(['later', 'toast', 'always']);
    clock.advance(1000);
    expect(await ids(d)).toEqual(['later', 'always']);
    // Returning with BACK is not entering: no loading again. Entering again is.
    await d.pressKey('BACK');
    await tapId(d, 'to_slow');
    expect(await ids(d)).toEqual(['progress']);
  });
});

describe('scrolling', () => {
  test('the list shows what is in its band, clipped; a swipe moves it by its distance, a fling 1.5×; both ends clamp', async () => {
    const d = await device();
    await d.openApp(PKG);
    await tapId(d, 'to_list');
    const first = await d.uiTree();
    expect(first.find((e) => e.element_id === 'scroll_container')).toMatchObject({ class: 'androidx.recyclerview.widget.RecyclerView', scrollable: true, bounds: { left: 0, top: 300, right: 1080, bottom: 2200 } });
    expect(first.filter((e) => e.element_id.startsWith('row_')).map((e) => e.element_id)).toEqual(Array.from({ length: 10 }, (_, i) => `row_${i}`));
    expect(first.find((e) => e.element_id === 'bar')?.bounds).toEqual({ left: 0, top: 2200, right: 1080, bottom: 2400 });
    await d.swipe(540, 1500, 540, 1400, 500);
    const moved = await d.uiTree();
    expect(moved.find((e) => e.element_id === 'row_0')?.bounds).toEqual({ left: 0, top: 300, right: 1080, bottom: 400 });
    expect(moved.find((e) => e.element_id === 'row_9')?.bounds).toEqual({ left: 0, top: 2000, right: 1080, bottom: 2200 });
    expect(moved.some((e) => e.element_id === 'row_10')).toBe(false);
    for (const e of moved) if (e.element_id.startsWith('row_')) expect(e.bounds.top >= 300 && e.bounds.bottom <= 2200, e.element_id).toBe(true);
    // A tap on the part of row_0 cut off by the band lands on nothing; its visible part is row_0.
    expect(await d.tap(540, 250)).toBeNull();
    await d.swipe(540, 1500, 540, 1400, 100);
    expect((await find(d, 'row_1')).bounds).toEqual({ left: 0, top: 300, right: 1080, bottom: 450 });
    await d.swipe(540, 2100, 540, 100, 100);
    await d.swipe(540, 2100, 540, 100, 100);
    await d.swipe(540, 2100, 540, 100, 100);
    const end = await d.uiTree();
    expect(end.find((e) => e.element_id === 'row_29')?.bounds).toEqual({ left: 0, top: 2000, right: 1080, bottom: 2200 });
    // A swipe starting outside the band moves nothing.
    await d.swipe(540, 2300, 540, 2250, 500);
    expect(await d.uiTree()).toEqual(end);
    await d.swipe(540, 400, 540, 2100, 100);
    await d.swipe(540, 400, 540, 2100, 100);
    await d.swipe(540, 400, 540, 2100, 100);
    expect((await find(d, 'row_0')).bounds).toEqual({ left: 0, top: 300, right: 1080, bottom: 500 });
  });
  test('BACK and reopening the running app return to the list as it was; entering it anew resets the offset', async () => {
    const d = await device();
    await d.openApp(PKG);
    await tapId(d, 'to_list');
    await d.swipe(540, 1500, 540, 1400, 500);
    const scrolled = (await find(d, 'row_0')).bounds;
    expect(scrolled).toEqual({ left: 0, top: 300, right: 1080, bottom: 400 });
    // A row opens the form on top; BACK comes back to the list scrolled as it was.
    await tapId(d, 'row_3');
    expect(await ids(d)).toContain('submit');
    await d.pressKey('BACK');
    expect((await find(d, 'row_0')).bounds).toEqual(scrolled);
    // HOME, then opening the app that is still running: the same screen, the same offset.
    await d.pressKey('HOME');
    await d.openApp(PKG);
    const reopened = await d.uiTree();
    if (reopened.some((e) => e.element_id === 'not_now')) await tapId(d, 'not_now'); // the every-second-open dialog
    expect((await find(d, 'row_0')).bounds).toEqual(scrolled);
    // Back to the start screen and into the list again: entered anew, from the top.
    await d.pressKey('BACK');
    await tapId(d, 'to_list');
    expect((await find(d, 'row_0')).bounds).toEqual({ left: 0, top: 300, right: 1080, bottom: 500 });
  });
});

describe('interrupts', () => {
  test('every second open shows the dialog over the screen; "Not now" leaves the screen beneath as it was; close_app keeps the count', async () => {
    const d = await device();
    await d.openApp(PKG);
    await tapId(d, 'to_list');
    await d.swipe(540, 1500, 540, 1000, 500);
    const before = await d.uiTree();
    await d.openApp(PKG);
    expect(await ids(d)).toEqual(['panel', 'nag_text', 'not_now']);
    await tapId(d, 'not_now');
    expect(await d.uiTree()).toEqual(before);
    await d.openApp(PKG);
    expect(await d.uiTree()).toEqual(before);
    await d.closeApp(PKG);
    await d.openApp(PKG);
    expect(await ids(d)).toEqual(['panel', 'nag_text', 'not_now']);
    await d.pressKey('BACK');
    expect(await ids(d)).toEqual(['to_slow', 'to_list', 'to_form']);
  });
});

describe('the keyboard', () => {
  test('a focused field raises it: what lies under it leaves the tree, taps there type; BACK hides it, the next BACK goes back; ENTER walks the fields', async () => {
    const d = await device();
    await d.openApp(PKG);
    await tapId(d, 'to_form');
    expect(await ids(d)).toContain('submit');
    await tapId(d, 'name');
    expect(await ids(d)).toEqual(['name', 'email']);
    // The "h" and "i" keys of the keyboard, where the submit button is drawn.
    await d.tap(594, 1852);
    await d.tap(756, 1696);
    expect((await find(d, 'name')).text).toBe('hi');
    await d.pressKey('ENTER');
    expect((await find(d, 'email')).focused).toBe(true);
    expect(await ids(d)).toEqual(['name', 'email']);
    await d.pressKey('BACK');
    expect(await ids(d)).toEqual(['name', 'email', 'submit']);
    expect((await d.currentApp())?.activity).toBe(`${PKG}.form`);
    await d.pressKey('BACK');
    expect((await d.currentApp())?.activity).toBe(`${PKG}.start`);
    await tapId(d, 'to_form');
    await tapId(d, 'email');
    await d.pressKey('ENTER');
    expect(await ids(d)).toEqual(['name', 'email', 'submit']);
  });
});
