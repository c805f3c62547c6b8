// A macro's walk through the demo app on the simulated host: every step taps what the UI
// tree shows and checks where it landed, as a real macro would.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../../src/modules/devices/hosts/sim/catalogue.js';
import type { DeviceDriver } from '../../../../src/modules/devices/hosts/types.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';
import { bootedSim, centre, find, screenTitle, tapOn } from './helpers/sim.js';

let t: HostTestDb;
beforeAll(async () => {
  t = await openHostTestDb();
});
afterAll(() => t.close());

async function freshDevice(): Promise<DeviceDriver> {
  return (await bootedSim(t)).driver;
}

describe('the demo app, step by step', () => {
  test('home → shop → product → dialog → checkout form → order placed, with the typed name on the last screen', async () => {
    const d = await freshDevice();
    expect(await d.currentApp()).toEqual({ package: 'com.android.launcher3', activity: 'com.android.launcher3.Launcher' });
    const icon = await tapOn(d, 'Corner Shop');
    expect(icon).toMatchObject({ class: 'android.widget.TextView', text: 'Corner Shop', clickable: true });
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Corner Shop`);
    expect(await d.currentApp()).toEqual({ package: DEMO_APP_PACKAGE, activity: `${DEMO_APP_PACKAGE}.CatalogActivity` });

    // The whole row is the tap target, not only its text.
    const row = await find(d, 'row_beans');
    expect(await d.tap(row.bounds.right - 10, row.bounds.bottom - 10)).toMatchObject({ element_id: 'row_beans', clickable: true });
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Espresso beans`);
    expect((await find(d, 'price')).text).toBe('€9.50');

    await tapOn(d, 'Add to cart');
    // A dialog: the tree is the dialog's window only.
    const dialog = await d.uiTree();
    expect(dialog.map((e) => e.text).filter(Boolean)).toEqual(['Added to cart', "It's in your cart. Check out now, or keep browsing and check out later.", 'Keep shopping', 'Check out']);
    await d.pressKey('BACK');
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Espresso beans`);
    await tapOn(d, 'Add to cart');
    await tapOn(d, 'Check out');
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Checkout`);

    await tapOn(d, 'full_name');
    expect((await find(d, 'full_name')).focused).toBe(true);
    await d.typeText('Ada Lovelace');
    await tapOn(d, 'street');
    await d.typeText('12 Rope Walk\nLondon');
    const form = await d.uiTree();
    expect(Object.fromEntries(form.filter((e) => e.editable).map((e) => [e.element_id, e.text]))).toEqual({ full_name: 'Ada Lovelace', street: '12 Rope Walk', city: 'London', postcode: '', phone: '' });
    expect(form.find((e) => e.focused)?.element_id).toBe('city');
    // The keyboard is up over the bottom of the form, as on a phone: BACK puts it away first.
    expect(form.some((e) => e.element_id === 'place_order')).toBe(false);
    await d.pressKey('BACK');
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Checkout`);

    await tapOn(d, 'Place order');
    expect((await find(d, 'thanks')).text).toBe('Thank you, Ada Lovelace!');
    expect((await find(d, 'details')).text).toContain('on its way to 12 Rope Walk.');
    await tapOn(d, 'Back to the shop');
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Corner Shop`);
    // Back to the shop returned to the first screen rather than stacking it: BACK now leaves the app.
    await d.pressKey('BACK');
    expect((await d.currentApp())?.package).toBe('com.android.launcher3');
  });

  test('sign in with an email and password: the account page names the user; the password never shows', async () => {
    const d = await freshDevice();
    await d.openApp(DEMO_APP_PACKAGE);
    await tapOn(d, 'Account');
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Sign in`);
    await tapOn(d, 'email');
    await d.typeText('grace@example.com');
    await d.pressKey('ENTER');
    expect((await find(d, 'password')).focused).toBe(true);
    await d.typeText('s3cret!');
    expect((await find(d, 'password')).text).toBe('•••••••');
    expect(JSON.stringify(await d.uiTree())).not.toContain('s3cret');
    await tapOn(d, 'Sign in');
    expect((await find(d, 'email')).text).toBe('grace@example.com');
    await tapOn(d, 'Sign out');
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Sign in`);
  });

  test('settings switches flip on tap and keep their place while the app runs', async () => {
    const d = await freshDevice();
    await d.openApp(DEMO_APP_PACKAGE);
    await tapOn(d, 'Settings');
    expect((await find(d, 'order_updates')).text).toBe('ON');
    expect((await find(d, 'offers')).text).toBe('OFF');
    expect(await tapOn(d, 'offers')).toMatchObject({ class: 'android.widget.Switch', text: 'OFF' });
    expect((await find(d, 'offers')).text).toBe('ON');
    await d.pressKey('HOME');
    await d.openApp(DEMO_APP_PACKAGE);
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Settings`);
    expect((await find(d, 'offers')).text).toBe('ON');
  });

  test('the out-of-stock dialog; a tap outside a dialog dismisses it', async () => {
    const d = await freshDevice();
    await d.openApp(DEMO_APP_PACKAGE);
    await tapOn(d, 'Paper filters ×100');
    expect((await find(d, 'dialog_title')).text).toBe('Out of stock');
    expect(await d.tap(540, 300)).toBeNull();
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Corner Shop`);
  });
});

describe('keys, gestures and apps', () => {
  test('DEL removes the last character, text with no focused field goes nowhere', async () => {
    const d = await freshDevice();
    await d.openApp(DEMO_APP_PACKAGE, { activity: '.CheckoutActivity' });
    await d.typeText('lost');
    expect((await d.uiTree()).filter((e) => e.editable).every((e) => e.text === '')).toBe(true);
    await tapOn(d, 'city');
    await d.typeText('Lisboa😀');
    await d.pressKey('DEL');
    await d.pressKey('KEYCODE_DEL');
    expect((await find(d, 'city')).text).toBe('Lisbo');
  });

  test('HOME keeps the task, APP_SWITCH returns to the previous app, closeApp forgets it', async () => {
    const d = await freshDevice();
    await d.openApp(DEMO_APP_PACKAGE);
    await tapOn(d, 'Checkout');
    await tapOn(d, 'full_name');
    await d.typeText('Kept');
    await d.pressKey('HOME');
    await tapOn(d, 'Settings');
    expect(await screenTitle(d)).toBe('com.android.settings:Settings');
    await tapOn(d, 'About phone');
    expect((await find(d, 'android_version')).text).toBe('14');
    await d.pressKey('APP_SWITCH');
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Checkout`);
    expect((await find(d, 'full_name')).text).toBe('Kept');
    await d.pressKey('APP_SWITCH');
    expect(await screenTitle(d)).toBe('com.android.settings:About phone');
    await d.closeApp(DEMO_APP_PACKAGE);
    await d.openApp(DEMO_APP_PACKAGE);
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Corner Shop`);
    await tapOn(d, 'Checkout');
    expect((await find(d, 'full_name')).text).toBe('');
  });

  test('edge swipes: from the side is BACK, up from the bottom is HOME; a tiny swipe is a tap', async () => {
    const d = await freshDevice();
    await d.openApp(DEMO_APP_PACKAGE);
    const [x, y] = centre(await find(d, 'row_mug'));
    await d.swipe(x, y, x + 5, y + 5, 50);
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Ceramic mug`);
    await d.swipe(5, 1200, 600, 1210, 200);
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Corner Shop`);
    await d.swipe(540, 1000, 540, 400, 200);
    expect(await screenTitle(d)).toBe(`${DEMO_APP_PACKAGE}:Corner Shop`);
    await d.swipe(540, 2390, 540, 1400, 300);
    expect((await d.currentApp())?.package).toBe('com.android.launcher3');
  });

  test('apps listed with labels and versions; bad input is refused and changes nothing', async () => {
    const d = await freshDevice();
    expect(await d.listApps()).toEqual([
      { package: DEMO_APP_PACKAGE, label: 'Corner Shop', version_name: '2.4.1' },
      { package: 'com.android.settings', label: 'Settings', version_name: '14' },
    ]);
    expect(await d.screenSize()).toEqual({ width: 1080, height: 2400, density: 420 });
    const before = JSON.stringify(await d.uiTree());
    await expect(d.tap(1080, 10)).rejects.toMatchObject({ status: 422, code: 'validation_failed' });
    await expect(d.tap(-1, 10)).rejects.toMatchObject({ status: 422 });
    await expect(d.tap(1.5, 10)).rejects.toMatchObject({ status: 422 });
    await expect(d.swipe(0, 0, 10, 10, -1)).rejects.toMatchObject({ status: 422 });
    await expect(d.pressKey('JUMP')).rejects.toMatchObject({ status: 422, message: expect.stringContaining('JUMP') });
    await expect(d.openApp('not a package')).rejects.toMatchObject({ status: 422 });
    await expect(d.openApp('com.example.missing')).rejects.toMatchObject({ status: 404, code: 'app_not_installed' });
    await expect(d.closeApp('com.example.missing')).rejects.toMatchObject({ status: 404, code: 'app_not_installed' });
    await expect(d.openApp(DEMO_APP_PACKAGE, { activity: '.NoSuchActivity' })).rejects.toMatchObject({ status: 422 });
    await expect(d.screenshot({ format: 'gif' as 'png' })).rejects.toMatchObject({ status: 422 });
    expect(JSON.stringify(await d.uiTree())).toBe(before);
  });
});
