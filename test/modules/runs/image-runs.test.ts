// Cloud runs that look for a picture, through the real routes, run job and device RPC on the
// `sim` host: the Corner Shop's mug thumbnail is cropped from the simulated screen into the
// library, then a block macro (`if_image`, `tap {image_id}`) and a Python macro
// (`svc_device.find_image`) find it and tap it, and the screen shows the mug's product page;
// where the mug is absent (the launcher) they take the other branch and the screen stays as
// it was, and a bare `tap {image_id}` fails the run saying the image does not show.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE, type DeviceDriver, type SimHost } from '../../../src/modules/devices/hosts/index.js';
import { blockMacro, type CloudWorld, cloudWorld, codeMacro, ended, logLines, startRun } from './helpers/cloud-world.js';
import { bootedCloudDevice } from './helpers/device.js';
import { removeTempDirs } from './helpers/runner.js';

/** The mug's thumbnail in the catalogue, inside its clickable row (device pixels). */
const MUG = { x: 48, y: 630, w: 168, h: 168 };
const PRODUCT = 'com.example.shop.ProductActivity';
const LAUNCHER = 'com.android.launcher3';

let w: CloudWorld;
const hosts: SimHost[] = [];
beforeAll(async () => {
  w = await cloudWorld();
  w.worker();
});
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  await w.close();
  removeTempDirs();
});

/** A booted cloud device showing the launcher, and the mug cropped from its catalogue screen into the library. */
async function deviceAndMug(name: string): Promise<{ deviceId: number; driver: DeviceDriver; mugId: string }> {
  const { id, host, driver } = await bootedCloudDevice(w.t.app, w.t.db, w.user, name);
  hosts.push(host);
  await driver.openApp(DEMO_APP_PACKAGE);
  const mug = await w.t.app.modules.images.services.screen.crop({ userId: w.user.id }, driver, { ...MUG, name: 'Mug thumbnail' });
  expect(mug.source).toBe('crop');
  await driver.pressKey('HOME');
  expect((await driver.currentApp())?.package).toBe(LAUNCHER);
  return { deviceId: id, driver, mugId: mug.id };
}

const screenOf = async (driver: DeviceDriver) => {
  const app = await driver.currentApp();
  return { package: app?.package, activity: app?.activity };
};

describe('a block macro using an image', () => {
  test('if_image sees the mug and tap {image_id} opens its product page; on the launcher it takes else and touches nothing', async () => {
    const { deviceId, driver, mugId } = await deviceAndMug('Blocks phone');
    const macroId = await blockMacro(w, {
      version: 1,
      steps: [
        { type: 'open_app', package: DEMO_APP_PACKAGE },
        { type: 'if_image', image_id: mugId, then: [{ type: 'log', message: 'mug shows' }, { type: 'tap', image_id: mugId }], else: [{ type: 'log', message: 'no mug' }] },
        { type: 'wait_for_text', text: 'Add to cart', timeout_ms: 3000 },
      ],
    });
    const run = await startRun(w, deviceId, { macro_id: macroId });
    const { run: done, history } = await ended(w, run.id);
    expect(done.state, done.state_message).toBe('finished');
    expect(history).toMatchObject({ status: 'completed', execution_type: 'block' });
    const lines = await logLines(w, run.execution_id);
    expect(lines).toEqual([
      `step 1/6: open app ${DEMO_APP_PACKAGE}`,
      `step 2/6: if image ${mugId} shows: yes, then`,
      'step 3/6: log: mug shows',
      `step 4/6: tap image ${mugId}`,
      'step 6/6: wait for "Add to cart" (up to 3000 ms)',
    ]);
    expect(lines.join('\n')).not.toMatch(/no mug/);
    // The tap landed on the mug: the shop shows the mug's product page.
    expect(await screenOf(driver)).toEqual({ package: DEMO_APP_PACKAGE, activity: PRODUCT });
    expect((await driver.uiTree()).some((e) => e.text === 'Ceramic mug' && e.resource_id.endsWith(':id/title'))).toBe(true);

    // The negative branch: on the launcher the mug does not show, so nothing is tapped.
    await driver.pressKey('HOME');
    const absent = await blockMacro(w, {
      version: 1,
      steps: [{ type: 'if_image', image_id: mugId, then: [{ type: 'tap', image_id: mugId }, { type: 'log', message: 'tapped a mug' }], else: [{ type: 'log', message: 'no mug here' }] }],
    });
    const second = await startRun(w, deviceId, { macro_id: absent });
    const { run: secondDone } = await ended(w, second.id);
    expect(secondDone.state, secondDone.state_message).toBe('finished');
    const secondLines = await logLines(w, second.execution_id);
    expect(secondLines.join('\n')).toContain(`if image ${mugId} shows: no, else`);
    expect(secondLines.join('\n')).toMatch(/no mug here/);
    expect(secondLines.join('\n')).not.toMatch(/tapped a mug/);
    expect((await screenOf(driver)).package).toBe(LAUNCHER);
  });

  test('a tap {image_id} on a screen without the image fails the run, saying so, and the screen stays', async () => {
    const { deviceId, driver, mugId } = await deviceAndMug('Missing phone');
    const macroId = await blockMacro(w, { version: 1, steps: [{ type: 'tap', image_id: mugId }, { type: 'log', message: 'after the tap' }] });
    const run = await startRun(w, deviceId, { macro_id: macroId });
    const { run: done, history } = await ended(w, run.id);
    expect(done.state).toBe('failed');
    expect(done.state_message).toMatch(new RegExp(`step 1/2 \\(steps.0\\) failed: tap image ${mugId}: The image ${mugId} does not show on the screen`));
    expect(history).toMatchObject({ status: 'failed' });
    expect((await logLines(w, run.execution_id)).join('\n')).not.toMatch(/after the tap/);
    expect((await screenOf(driver)).package).toBe(LAUNCHER);
  });
});

describe('a Python macro using an image', () => {
  test('find_image finds the mug (score ≥ 0.95 where it was cut) and a tap at its centre opens the product page; on the launcher it answers [] and the macro does not tap', async () => {
    const { deviceId, driver, mugId } = await deviceAndMug('Python phone');
    const code = `
import svc_device as d
IMAGE = "${mugId}"

def tap_if_shown(label):
    found = d.find_image(IMAGE)
    if not found:
        print(label, "no match, not tapped")
        return
    m = found[0]
    print(label, "match", m["x"], m["y"], m["w"], m["h"], m["score"] >= 0.95, len(found))
    d.tap(m["x"] + m["w"] // 2, m["y"] + m["h"] // 2)
    print(label, "product page:", d.find_text("Add to cart") is not None)

d.open_app("${DEMO_APP_PACKAGE}")
tap_if_shown("catalogue:")
d.key("HOME")
tap_if_shown("launcher:")
print("front:", d.current_app())
`;
    const macroId = await codeMacro(w, { 'main.py': code });
    const run = await startRun(w, deviceId, { macro_id: macroId });
    const { run: done, history } = await ended(w, run.id, 30_000);
    expect(done.state, done.state_message).toBe('finished');
    expect(history).toMatchObject({ status: 'completed', exit_code: 0, execution_type: 'python' });
    const lines = await logLines(w, run.execution_id);
    const match = lines.find((l) => l.startsWith('catalogue: match'));
    expect(match, lines.join('\n')).toBeDefined();
    const [x, y, width, height, sure, count] = match!.replace('catalogue: match ', '').split(' ');
    expect(Math.abs(Number(x) - MUG.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(Number(y) - MUG.y)).toBeLessThanOrEqual(1);
    expect([Number(width), Number(height), sure, count]).toEqual([MUG.w, MUG.h, 'True', '1']);
    expect(lines).toContain('catalogue: product page: True');
    expect(lines).toContain('launcher: no match, not tapped');
    expect(lines.at(-1)).toMatch(new RegExp(`^front: .*${LAUNCHER.replace(/\./g, '\\.')}`));
    // After HOME nothing was tapped: the launcher is in front, and the shop kept its product page.
    expect((await screenOf(driver)).package).toBe(LAUNCHER);
    await driver.openApp(DEMO_APP_PACKAGE);
    expect((await screenOf(driver)).activity).toBe(PRODUCT);
  });
});
