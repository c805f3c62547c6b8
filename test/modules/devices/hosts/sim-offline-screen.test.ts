// renderSimScreen: one simulated screen drawn without a device, for fixtures. It must show
// exactly what a booted device shows on the same screen, and name the text it drew.
import { describe, expect, it } from 'vitest';
import { DEMO_APP_PACKAGE, renderSimScreen } from '../../../../src/modules/devices/index.js';

describe('renderSimScreen', () => {
  it('draws a screen with its UI tree and the text the painters drew, ellipsized as drawn', async () => {
    const shot = await renderSimScreen({ package: DEMO_APP_PACKAGE, stack: ['catalog'] });
    expect(shot).toMatchObject({ format: 'png', width: 1080, height: 2400 });
    expect(shot.data.subarray(1, 4).toString()).toBe('PNG');
    expect(shot.elements.map((e) => e.element_id)).toContain('checkout');
    const checkout = shot.texts.find((t) => t.text === 'Checkout');
    // The button's label is centred in the button (48..1032, 2169..2313).
    expect(checkout).toBeDefined();
    expect(checkout!.bounds.left).toBeGreaterThan(400);
    expect(checkout!.bounds.right).toBeLessThan(680);
    expect(checkout!.bounds.top).toBeGreaterThan(2169);
    expect(checkout!.bounds.bottom).toBeLessThan(2313);
    // The status bar's clock is drawn text too; the long delivery note wraps into lines.
    expect(shot.texts.map((t) => t.text)).toContain('09:41');
    expect(shot.texts.map((t) => t.text)).toEqual(expect.arrayContaining(['Free delivery on orders over €30. Orders', 'day.']));
  });

  it('shows typed fields, masks passwords, and draws a dialog over the screen beneath', async () => {
    const form = await renderSimScreen({ package: DEMO_APP_PACKAGE, stack: ['catalog', 'sign_in'], fields: { 'sign_in.email': 'ada@example.com', 'sign_in.password': 'secret' } });
    const texts = form.texts.map((t) => t.text);
    expect(texts).toContain('ada@example.com');
    expect(texts).toContain('••••••');
    expect(texts).not.toContain('secret');
    const dialog = await renderSimScreen({ package: DEMO_APP_PACKAGE, stack: ['catalog', 'out_of_stock'] });
    expect(dialog.elements[0].element_id).not.toBe('toolbar');
    expect(dialog.texts.map((t) => t.text)).toEqual(expect.arrayContaining(['Out of stock', 'Corner Shop']));
  });

  it('draws the home screen by default and the same pixels for the same request', async () => {
    const a = await renderSimScreen();
    const b = await renderSimScreen({});
    expect(a.data.equals(b.data)).toBe(true);
    expect(a.texts.map((t) => t.text)).toContain('Corner Shop');
  });

  it('refuses an unknown package, screen or field reference', async () => {
    await expect(renderSimScreen({ package: 'com.example.none' })).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(renderSimScreen({ package: DEMO_APP_PACKAGE, stack: ['nowhere'] })).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(renderSimScreen({ package: DEMO_APP_PACKAGE, fields: { bad: 'x' } })).rejects.toMatchObject({ code: 'validation_failed' });
  });
});
