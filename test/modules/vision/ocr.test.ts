// OCR of simulated screens against the text the device drew, a region read back in screen
// pixels, typed errors, and proof that nothing is fetched: the same read in a child process
// with no network at all (its own empty network namespace), which also writes no file.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidImageError, OcrReader } from '../../../src/modules/vision/index.js';
import { fixtureScreen, type FixtureScreen } from '../../helpers/vision-fixtures.js';
import { wordAccuracy } from '../../helpers/word-accuracy.js';

const reader = new OcrReader();
let catalog: FixtureScreen;

beforeAll(async () => {
  catalog = await fixtureScreen('catalog');
});
afterAll(() => reader.close());

describe('OcrReader', () => {
  it('reads a whole screen: at least 98 % of the words drawn, few invented, with bounds on the drawn text', async () => {
    const lines = await reader.read(catalog.png);
    const drawn = catalog.texts.filter((t) => !t.icon);
    const score = wordAccuracy(
      drawn.map((t) => t.text),
      lines.map((l) => l.text),
    );
    expect(score.correct / score.expected, `missed ${score.missed.join(' | ')}`).toBeGreaterThanOrEqual(0.98);
    expect(score.correct / score.read, `invented ${score.invented.join(' | ')}`).toBeGreaterThanOrEqual(0.95);
    const title = lines.find((l) => l.text === 'Corner Shop');
    const truth = drawn.find((t) => t.text === 'Corner Shop')!.bounds;
    expect(title).toMatchObject({ source: 'ocr' });
    expect(title!.confidence).toBeGreaterThan(0.8);
    for (const side of ['left', 'top', 'right', 'bottom'] as const) expect(Math.abs(title!.bounds[side] - truth[side])).toBeLessThanOrEqual(16);
    // Reading order: the title before the first product, the button last.
    const order = lines.map((l) => l.text);
    expect(order.indexOf('Corner Shop')).toBeLessThan(order.indexOf('Espresso beans'));
    expect(order[order.length - 1]).toBe('Checkout');
  }, 60_000);

  it('reads a region only, answering bounds in the screen pixels, on the same worker', async () => {
    const button = catalog.elements.find((e) => e.element_id === 'checkout')!.bounds;
    const lines = await reader.read(catalog.png, { region: button });
    expect(lines.map((l) => l.text)).toEqual(['Checkout']);
    const b = lines[0].bounds;
    expect(b.left).toBeGreaterThan(button.left);
    expect(b.right).toBeLessThan(button.right);
    expect(b.top).toBeGreaterThan(button.top);
    expect(b.bottom).toBeLessThan(button.bottom);
  }, 30_000);

  it('answers typed errors for a bad picture or region, and keeps working after them', async () => {
    await expect(reader.read(Buffer.from('GIF89a nothing'))).rejects.toBeInstanceOf(InvalidImageError);
    await expect(reader.read(catalog.png, { region: { left: 0, top: 0, right: 2000, bottom: 10 } })).rejects.toMatchObject({ status: 422, code: 'validation_failed' });
    await expect(reader.read(catalog.png, { region: { left: 10, top: 10, right: 10, bottom: 20 } })).rejects.toMatchObject({ code: 'validation_failed' });
    const lines = await reader.read(catalog.png, { region: catalog.elements.find((e) => e.element_id === 'checkout')!.bounds });
    expect(lines[0].text).toBe('Checkout');
  }, 30_000);
});

describe('OCR offline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ocr-offline-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads text in a process that has no network at all, and writes nothing where it runs', () => {
    const root = join(import.meta.dirname, '../../..');
    // The build (`npm test` makes it first): a child process runs JavaScript, not our TypeScript.
    expect(existsSync(join(root, 'dist/modules/vision/index.js')), 'run `npm run build` first').toBe(true);
    // `unshare --net` gives the child an empty network namespace: not even loopback is up, so
    // any fetch of a model or of code would fail.
    expect(spawnSync('unshare', ['--net', 'true']).status, 'unshare --net must work here (root)').toBe(0);
    const script = `
      import { DEMO_APP_PACKAGE, renderSimScreen } from ${JSON.stringify(join(root, 'dist/modules/devices/index.js'))};
      import { OcrReader } from ${JSON.stringify(join(root, 'dist/modules/vision/index.js'))};
      import { networkInterfaces } from 'node:os';
      const shot = await renderSimScreen({ package: DEMO_APP_PACKAGE, stack: ['catalog'] });
      const button = shot.elements.find((e) => e.element_id === 'checkout').bounds;
      const reader = new OcrReader();
      const lines = await reader.read(shot.data, { region: button });
      await reader.close();
      const up = Object.values(networkInterfaces()).flat().filter((i) => !i.internal).length;
      console.log(JSON.stringify({ text: lines.map((l) => l.text), up }));
    `;
    const out = execFileSync('unshare', ['--net', process.execPath, '--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ text: ['Checkout'], up: 0 });
    // Tesseract's default would have cached eng.traineddata in the working directory.
    expect(readdirSync(dir)).toEqual([]);
  }, 90_000);
});
