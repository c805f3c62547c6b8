// App descriptions (decisions.md §9): the built-in apps are valid and complete, and a bad
// description is refused with a message naming the problem.
import { describe, expect, test } from 'vitest';
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
  ])('%s', (_name, input, message) => {
    expect(() => parseSimApp(input)).toThrow(SimAppDescriptionError);
    expect(() => parseSimApp(input)).toThrow(message);
  });

  test('an extra app given to the host is preinstalled and shown', () => {
    const extra = { package: 'com.x.y', label: 'Extra', screens: [screen([element({ to: 'back' })])] };
    const withExtra = createSimCatalogue([extra]);
    expect(withExtra.preinstalled.map((a) => a.label)).toEqual(['Corner Shop', 'Settings', 'Extra']);
    expect(() => createSimCatalogue([{ ...extra, label: '' }])).toThrow(SimAppDescriptionError);
  });
});
