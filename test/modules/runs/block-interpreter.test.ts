// The block interpreter on a simulated device: every step kind walking the demo app, one log
// line per step, failures naming the step's path, image steps on a cropped template, stop and
// time-out.
import { describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE, type DeviceDriver } from '../../../src/modules/devices/hosts/index.js';
import { runBlockProgram } from '../../../src/modules/runs/blocks/interpreter.js';
import type { Step } from '../../../src/modules/runs/blocks/program-types.js';
import { parseBlockProgram } from '../../../src/modules/runs/blocks/validate.js';
import { bootedSim } from '../devices/hosts/helpers/sim.js';
import { useImagesDb } from './helpers/images-db.js';

const world = useImagesDb();

async function run(steps: unknown[], options: { maxSeconds?: number; signal?: AbortSignal; driver?: DeviceDriver } = {}) {
  const driver = options.driver ?? (await bootedSim(world.t)).driver;
  const lines: string[] = [];
  const program = parseBlockProgram({ version: 1, steps }, 'blocks');
  const started = performance.now();
  const outcome = await runBlockProgram({ program, driver, userId: world.t.userId, images: world.images, log: (line) => lines.push(line), maxSeconds: options.maxSeconds ?? 60, signal: options.signal });
  return { outcome, lines, driver, ms: performance.now() - started };
}

const SHOP: Step[] = [
  { type: 'open_app', package: DEMO_APP_PACKAGE },
  { type: 'wait_for_text', text: 'Corner Shop', timeout_ms: 2000 },
  { type: 'if_text', text: 'Espresso beans', then: [{ type: 'tap', element_id: 'row_beans' }], else: [{ type: 'log', message: 'no beans' }] },
  { type: 'tap', text: 'Add to cart' },
  { type: 'tap', text: 'Keep shopping' },
  { type: 'repeat', times: 2, steps: [{ type: 'tap', element_id: 'row_mug' }, { type: 'key', key: 'BACK' }] },
  { type: 'if_text', text: 'Definitely not here', then: [{ type: 'log', message: '?' }], else: [{ type: 'log', message: 'no such text' }] },
  { type: 'tap', x: 540, y: 2241 },
  { type: 'tap', element_id: 'full_name' },
  { type: 'type', text: 'Ada' },
  { type: 'key', key: 'ENTER' },
  { type: 'type', text: 'Rope Walk' },
  { type: 'swipe', from: { x: 540, y: 1800 }, to: { x: 540, y: 900 }, ms: 100 },
  // The keyboard covers "Place order" while a field has focus, as on a phone: BACK hides it.
  { type: 'key', key: 'BACK' },
  { type: 'tap', text: 'Place order' },
  { type: 'wait_for_text', text: 'Thank you, Ada!', timeout_ms: 2000 },
  { type: 'wait', ms: 50 },
  { type: 'close_app', package: DEMO_APP_PACKAGE },
];

describe('a program with every step kind', () => {
  test('walks the Corner Shop to a placed order, one log line per step', async () => {
    const { outcome, lines, driver } = await run(SHOP);
    expect(outcome).toEqual({ state: 'finished', exitCode: null, errorMessage: null, stateMessage: null });
    expect(lines).toEqual([
      'step 1/24: open app com.example.shop',
      'step 2/24: wait for "Corner Shop" (up to 2000 ms)',
      'step 3/24: if text "Espresso beans" shows: yes, then',
      'step 4/24: tap element "row_beans"',
      'step 6/24: tap "Add to cart"',
      'step 7/24: tap "Keep shopping"',
      'step 8/24: repeat 2 times',
      'step 9/24: tap element "row_mug" (repeat 1/2)',
      'step 10/24: key BACK (repeat 1/2)',
      'step 9/24: tap element "row_mug" (repeat 2/2)',
      'step 10/24: key BACK (repeat 2/2)',
      'step 11/24: if text "Definitely not here" shows: no, else',
      'step 13/24: log: no such text',
      'step 14/24: tap (540, 2241)',
      'step 15/24: tap element "full_name"',
      'step 16/24: type "Ada"',
      'step 17/24: key ENTER',
      'step 18/24: type "Rope Walk"',
      'step 19/24: swipe (540, 1800) → (540, 900) in 100 ms',
      'step 20/24: key BACK',
      'step 21/24: tap "Place order"',
      'step 22/24: wait for "Thank you, Ada!" (up to 2000 ms)',
      'step 23/24: wait 50 ms',
      'step 24/24: close app com.example.shop',
    ]);
    expect((await driver.currentApp())?.package).toBe('com.android.launcher3');
  });
});

describe('a step that fails ends the run failed, naming its number and path', () => {
  test('a text that is not on the screen, deep in a loop', async () => {
    const { outcome, lines } = await run([
      { type: 'open_app', package: DEMO_APP_PACKAGE },
      { type: 'repeat', times: 3, steps: [{ type: 'log', message: 'looking' }, { type: 'if_text', text: 'Corner Shop', then: [{ type: 'tap', text: 'Sign in' }] }] },
    ]);
    const message = 'step 5/5 (steps.1.steps.1.then.0) failed: tap "Sign in": No element on the screen shows the text "Sign in".';
    expect(outcome).toEqual({ state: 'failed', exitCode: null, errorMessage: message, stateMessage: message });
    expect(lines.at(-1)).toBe('step 5/5: tap "Sign in" (repeat 1/3)');
  });

  test('a device refusal: an app that is not installed, a point off the screen', async () => {
    expect((await run([{ type: 'open_app', package: 'com.nope.app' }])).outcome.errorMessage).toBe('step 1/1 (steps.0) failed: open app com.nope.app: The app com.nope.app is not installed on this device.');
    expect((await run([{ type: 'tap', x: 5000, y: 1 }])).outcome.errorMessage).toMatch(/^step 1\/1 \(steps.0\) failed: tap \(5000, 1\): Validation failed: x must be a whole number from 0 to 1079/);
  });

  test('wait_for_text gives up after its time-out', async () => {
    const { outcome, ms } = await run([{ type: 'wait_for_text', text: 'Never shown', timeout_ms: 300 }]);
    // §16: the old step means wait_for {selector: {text}}, and says what the screen showed instead.
    expect(outcome.errorMessage).toMatch(/^step 1\/1 \(steps\.0\) failed: wait for "Never shown" \(up to 300 ms\): No element text='Never shown' after 0\.3 s on com\.android\.launcher3\/\.Launcher\. On screen: 'Corner Shop', /);
    expect(ms).toBeGreaterThanOrEqual(300);
    expect(ms).toBeLessThan(2000);
  });

  test('tap {image_id} and if_image find a template cropped from the screen', async () => {
    const { driver } = await bootedSim(world.t);
    await driver.openApp(DEMO_APP_PACKAGE);
    // The mug's thumbnail, cut from the catalogue (it sits inside the mug's clickable row).
    const mug = await world.images.crop({ userId: world.t.userId }, driver, { x: 48, y: 630, w: 168, h: 168, name: 'mug' });
    const { outcome, lines } = await run(
      [
        { type: 'if_image', image_id: mug.id, then: [{ type: 'tap', image_id: mug.id }], else: [{ type: 'log', message: 'no mug' }] },
        { type: 'wait_for_text', text: 'Add to cart', timeout_ms: 2000 },
        // On the product page the catalogue thumbnail is gone: if_image takes else.
        { type: 'if_image', image_id: mug.id, threshold: 0.95, then: [{ type: 'log', message: 'still there?' }], else: [{ type: 'log', message: 'gone' }] },
      ],
      { driver },
    );
    expect(outcome.state, outcome.errorMessage ?? undefined).toBe('finished');
    expect(lines[0]).toBe(`step 1/7: if image ${mug.id} shows: yes, then`);
    expect(lines[1]).toBe(`step 2/7: tap image ${mug.id}`);
    expect(lines.at(-2)).toBe(`step 5/7: if image ${mug.id} shows: no, else`);
    expect((await driver.currentApp())?.activity).toMatch(/Product|product/);
  });

  test('an image the library does not hold, or that does not show, fails the step with a clear message', async () => {
    expect((await run([{ type: 'tap', image_id: 'img_0123456789abcdef' }])).outcome.errorMessage).toBe(
      'step 1/1 (steps.0) failed: tap image img_0123456789abcdef: No image with this id in your image library.',
    );
    const { driver } = await bootedSim(world.t);
    await driver.openApp(DEMO_APP_PACKAGE);
    const mug = await world.images.crop({ userId: world.t.userId }, driver, { x: 48, y: 630, w: 168, h: 168, name: 'mug' });
    await driver.pressKey('HOME');
    expect((await run([{ type: 'tap', image_id: mug.id }], { driver })).outcome.errorMessage).toMatch(new RegExp(`^step 1/1 \\(steps.0\\) failed: tap image ${mug.id}: The image ${mug.id} does not show on the screen`));
  });

  test('an empty program cannot run', async () => {
    expect((await run([])).outcome).toMatchObject({ state: 'failed', stateMessage: 'the block program has no steps, so there is nothing to run' });
  });
});

describe('stop and the time limit', () => {
  test('a stop ends the run at once, even inside a wait', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const { outcome, lines, ms } = await run([{ type: 'log', message: 'before' }, { type: 'wait', ms: 600_000 }, { type: 'log', message: 'after' }], { signal: stop.signal });
    expect(outcome).toEqual({ state: 'stopped', exitCode: null, errorMessage: null, stateMessage: 'stopped on request' });
    expect(lines).toEqual(['step 1/3: log: before', 'step 2/3: wait 600000 ms']);
    expect(ms).toBeLessThan(1500);
  });

  test('past RUN_MAX_SECONDS the run fails saying so', async () => {
    const { outcome, ms } = await run([{ type: 'repeat', times: 1000, steps: [{ type: 'wait', ms: 100 }] }], { maxSeconds: 1 });
    expect(outcome).toMatchObject({ state: 'failed', stateMessage: 'time limit exceeded: the run was still going after 1 s (RUN_MAX_SECONDS)' });
    expect(ms).toBeGreaterThanOrEqual(990);
    expect(ms).toBeLessThan(2500);
  });
});
