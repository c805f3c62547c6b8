// App descriptions (decisions.md §9): the built-in apps are valid and complete, and a bad
// description is refused with a message naming the problem.
import { describe, expect, test } from 'vitest';
import { dailyFeed } from '../../../../src/modules/devices/hosts/sim/apps/daily-feed/index.js';
import { parseSimApp, SimAppDescriptionError } from '../../../../src/modules/devices/hosts/sim/app-schema.js';
import { createSimCatalogue, DEMO_APP_PACKAGE } from '../../../../src/modules/devices/hosts/sim/catalogue.js';
import { isDialogScreen } from '../../../../src/modules/devices/hosts/sim/view.js';

const catalogue = createSimCatalogue();
const demo = catalogue.appFor(catalogue.preinstalled.find((a) => a.package === DEMO_APP_PACKAGE)!);

describe('the demo app', () => {
  test('has a list, details, a form, dialogs, settings and a sign-in page', () => {
    const byId = Object.fromEntries(demo.screens.map((s) => [s.id, s]));
    expect(demo.screens.length).toBeGreaterThanOrEqual(6);
    expect(byId.catalog.elements.filter((e) => e.clickable && e.class.endsWith('LinearLayout'))).toHaveLength(4);
    expect(byId.product_beans.elements.some((e) => e.class.endsWith('ImageView'))).toBe(true);
    expect(byId.checkout.elements.filter((e) => e.editable)).toHaveLength(5);
    expect(demo.screens.filter(isDialogScreen).map((s) => s.id)).toEqual(['added_to_cart', 'out_of_stock']);
    expect(byId.settings.elements.filter((e) => e.class.endsWith('Switch'))).toHaveLength(3);
    expect(byId.sign_in.elements.filter((e) => e.editable).map((e) => e.id)).toEqual(['email', 'password']);
  });

  test('every screen can be reached from the first by taps', () => {
    const seen = new Set([demo.screens[0].id]);
    const queue = [demo.screens[0].id];
    while (queue.length) {
      const next = queue.shift();
      const screen = demo.screens.find((s) => s.id === next)!;
      for (const e of screen.elements) {
        if (e.to && e.to !== 'back' && !e.to.startsWith('package:') && !seen.has(e.to)) {
          seen.add(e.to);
          queue.push(e.to);
        }
      }
    }
    expect([...seen].sort()).toEqual(demo.screens.map((s) => s.id).sort());
  });
});

describe('parseSimApp refuses', () => {
  const screen = (elements: object[], id = 'main') => ({ id, title: 'T', activity: 'com.x.y.Main', elements });
  const element = (extra: object = {}) => ({ id: 'a', class: 'android.widget.Button', text: 'Go', resource_id: '', content_desc: '', bounds: { left: 0, top: 100, right: 200, bottom: 200 }, clickable: true, editable: false, ...extra });
  test.each([
    ['a missing label', { package: 'com.x.y', screens: [screen([element()])] }, 'label'],
    ['an unknown field', { package: 'com.x.y', label: 'X', colour: 'red', screens: [screen([element()])] }, 'additional'],
    ['a bad package name', { package: 'x', label: 'X', screens: [screen([element()])] }, '/package'],
    ['no screens', { package: 'com.x.y', label: 'X', screens: [] }, '/screens'],
    ['a duplicate screen', { package: 'com.x.y', label: 'X', screens: [screen([element()]), screen([element()])] }, 'screen main is defined twice'],
    ['a duplicate element', { package: 'com.x.y', label: 'X', screens: [screen([element(), element()])] }, 'element a is defined twice'],
    ['a link to nowhere', { package: 'com.x.y', label: 'X', screens: [screen([element({ to: 'elsewhere' })])] }, 'unknown screen "elsewhere"'],
    ['bounds past the screen', { package: 'com.x.y', label: 'X', screens: [screen([element({ bounds: { left: 0, top: 0, right: 1081, bottom: 10 } })])] }, 'bounds'],
    ['empty bounds', { package: 'com.x.y', label: 'X', screens: [screen([element({ bounds: { left: 10, top: 10, right: 10, bottom: 20 } })])] }, 'bounds'],
    ['loading_ms past 30 s', { package: 'com.x.y', label: 'X', screens: [{ ...screen([element()]), loading_ms: { min: 0, max: 30_001 } }] }, 'screen main (/screens/0/loading_ms/max) must be <= 30000'],
    ['loading_ms min above max', { package: 'com.x.y', label: 'X', screens: [{ ...screen([element()]), loading_ms: { min: 900, max: 100 } }] }, 'com.x.y screen main has loading_ms.min above loading_ms.max'],
    ['appear_after_ms past 60 s', { package: 'com.x.y', label: 'X', screens: [screen([element({ appear_after_ms: 60_001 })])] }, 'screen main element a (/screens/0/elements/0/appear_after_ms) must be <= 60000'],
    ['a negative hide_after_ms', { package: 'com.x.y', label: 'X', screens: [screen([element({ hide_after_ms: -1 })])] }, 'screen main element a (/screens/0/elements/0/hide_after_ms)'],
    ['a scroll band upside down', { package: 'com.x.y', label: 'X', screens: [{ ...screen([element()]), scroll: { top: 900, bottom: 800 } }] }, 'com.x.y screen main has scroll.bottom at or above scroll.top'],
    ['content past y = 100,000', { package: 'com.x.y', label: 'X', screens: [{ ...screen([element({ bounds: { left: 0, top: 300, right: 10, bottom: 100_001 } })]), scroll: { top: 252, bottom: 2200 } }] }, 'com.x.y screen main element a has bounds outside the scrolling content'],
    ['tall bounds without scroll', { package: 'com.x.y', label: 'X', screens: [screen([element({ bounds: { left: 0, top: 300, right: 10, bottom: 5000 } })])] }, 'com.x.y screen main element a has bounds outside the 1080×2400 screen'],
    ['fixed without scroll', { package: 'com.x.y', label: 'X', screens: [screen([element({ fixed: true })])] }, 'com.x.y screen main element a is marked fixed on a screen without scroll'],
    ['an interrupt to nowhere', { package: 'com.x.y', label: 'X', screens: [screen([element()])], interrupts: [{ screen: 'rate', every_opens: 3 }] }, 'com.x.y interrupt #0 names unknown screen "rate"'],
    ['an interrupt that is not a dialog', { package: 'com.x.y', label: 'X', screens: [screen([element()]), screen([element()], 'rate')], interrupts: [{ screen: 'rate', every_opens: 3 }] }, 'com.x.y screen rate is named by interrupt #0 but is not a dialog'],
    ['an interrupt without a rule', { package: 'com.x.y', label: 'X', screens: [screen([element()]), screen([{ ...element(), clickable: false, bounds: { left: 100, top: 900, right: 980, bottom: 1400 } }], 'rate')], interrupts: [{ screen: 'rate' }] }, 'com.x.y interrupt #0 needs every_opens, after_opens or probability'],
    ['sets for an unknown screen', { package: 'com.x.y', label: 'X', screens: [screen([element({ sets: { 'detail.title': 'Mug' } })])] }, 'com.x.y screen main element a sets "detail.title" of unknown screen'],
    ['sets on an editable field', { package: 'com.x.y', label: 'X', screens: [screen([element({ editable: true, sets: { 'main.a': 'x' } })])] }, 'com.x.y screen main element a is editable and cannot have sets'],
    ['a sets key that is not screen.element', { package: 'com.x.y', label: 'X', screens: [screen([element({ sets: { title: 'Mug' } })])] }, 'com.x.y screen main element a sets "title", which is not screen.element'],
    ['more than 20 sets', { package: 'com.x.y', label: 'X', screens: [screen([element({ sets: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`main.f${i}`, 'x'])) })])] }, 'screen main element a (/screens/0/elements/0/sets) must'],
    ['a probability above 1', { package: 'com.x.y', label: 'X', screens: [screen([element()])], interrupts: [{ screen: 'main', probability: 1.5 }] }, 'interrupt #0 (/interrupts/0/probability) must be <= 1'],
  ])('%s', (_name, input, message) => {
    expect(() => parseSimApp(input)).toThrow(SimAppDescriptionError);
    expect(() => parseSimApp(input)).toThrow(message);
  });

  test('a file name given leads the message', () => {
    expect(() => parseSimApp({ package: 'com.x.y', label: 'X', screens: [screen([element({ appear_after_ms: 'soon' })])] }, 'my-app.json')).toThrow(
      /^Invalid app description my-app\.json: screen main element a \(\/screens\/0\/elements\/0\/appear_after_ms\) must be integer/,
    );
  });

  test('an extra app given to the host is preinstalled and shown', () => {
    const extra = { package: 'com.x.y', label: 'Extra', screens: [screen([element({ to: 'back' })])] };
    const withExtra = createSimCatalogue([extra]);
    expect(withExtra.preinstalled.map((a) => a.label)).toEqual(['Corner Shop', 'Daily Feed', 'Settings', 'Extra']);
    expect(() => createSimCatalogue([{ ...extra, label: '' }])).toThrow(SimAppDescriptionError);
  });
});

describe('Daily Feed', () => {
  test('a feed of at least 150 posts behind a 0.5–2.5 s loading screen, a post, a dialog every third open, a snackbar, a sign-in form', () => {
    const feed = parseSimApp(dailyFeed);
    const screen = (id: string) => feed.screens.find((s) => s.id === id);
    expect(feed).toMatchObject({ package: 'com.example.feed', label: 'Daily Feed', interrupts: [{ screen: 'rate', every_opens: 3 }] });
    expect(screen('feed')).toMatchObject({ loading_ms: { min: 500, max: 2500 }, scroll: { top: 252, bottom: 2340 } });
    expect(screen('feed')?.elements.filter((e) => e.resource_id === 'com.example.feed:id/post_row' && e.to === 'post').length).toBeGreaterThanOrEqual(150);
    expect(screen('rate')?.elements.find((e) => e.text === 'Not now')).toMatchObject({ to: 'back' });
    expect(screen('post_saved')?.elements.find((e) => e.id === 'snackbar')).toMatchObject({ hide_after_ms: 2500 });
    const button = screen('sign_in')?.elements.find((e) => e.id === 'sign_in_button');
    expect(((button?.bounds.top ?? 0) + (button?.bounds.bottom ?? 0)) / 2).toBeGreaterThanOrEqual(1500);
  });
});
