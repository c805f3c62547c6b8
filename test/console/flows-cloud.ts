// A cloud device from the console: created, started (followed to ready), its live view tapped
// through the picture (the picture changes), a screenshot, an APK built with aapt installed
// (and a file that is not an APK refused with the API's sentence), a block macro run on it
// with its log lines arriving on the run page, the run opened again from the run history and
// stopped there, the device stopped and deleted.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { allModules } from '../../src/build-modules.js';
import { buildApk } from '../modules/devices/hosts/helpers/build-apk.js';
import { cloudRunNotFound, stopFromHistory } from './flows-cloud-history.js';
import { failedRunTrace } from './flows-traces.js';
import { createMacro } from './flows-macros.js';
import { expectAccessible, SCREENSHOTS, VIEWPORT } from './harness.js';
import { openFromNav, type World } from './world.js';

const DEVICE = 'Cloud phone 2';

/** The module workers `serve` runs besides webhook deliveries (the test runs its own): the device lifecycle, lease sweep and cloud runs. */
export function startCloudWorkers(w: World): void {
  w.cloudWorkers = allModules(w.t.app.modules)
    .flatMap((module) => module.workers ?? [])
    .filter((worker) => !worker.name.startsWith('webhook'));
  for (const worker of w.cloudWorkers) worker.start();
}

/**
 * axe-core and a screenshot, like checkPage, without waiting for the network to go idle:
 * the live view's MJPEG stream never ends while it is on the page.
 */
async function checkLivePage(page: Page, name: string): Promise<void> {
  await page.mouse.move(VIEWPORT.width - 2, VIEWPORT.height - 2);
  await expectAccessible(page, name);
  await page.evaluate('document.fonts.ready');
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', caret: 'hide' });
}

async function openDrawer(page: Page): Promise<Locator> {
  const drawer = page.getByRole('dialog', { name: DEVICE });
  if (!(await drawer.isVisible())) await page.getByRole('button', { name: `Open ${DEVICE}` }).click();
  await expect.poll(() => drawer.isVisible()).toBe(true);
  return drawer;
}

export async function cloudDevice(w: World): Promise<void> {
  const { page } = w;
  startCloudWorkers(w);
  // A block macro that logs, then waits long enough to be stopped.
  await openFromNav(page, 'Macros');
  const program = { version: 1, steps: [{ type: 'log', message: 'hello from the cloud' }, { type: 'wait', ms: 1500 }, { type: 'log', message: 'still here' }, { type: 'wait', ms: 600000 }, { type: 'log', message: 'never' }] };
  await createMacro(page, 'Cloud logger', 'Block program', JSON.stringify(program));

  await openFromNav(page, 'Devices');
  await page.getByRole('button', { name: 'Cloud device', exact: true }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Name', exact: true }).fill(DEVICE);
  await page.getByRole('dialog').getByRole('button', { name: 'Add device' }).click();
  await expect.poll(() => page.getByRole('row', { name: new RegExp(DEVICE) }).innerText()).toMatch(/stopped/);

  // Start: followed through placing and starting to ready without a reload.
  let drawer = await openDrawer(page);
  expect(await drawer.getByText('The live view, screenshots and apps appear once the device is ready.').isVisible()).toBe(true);
  await drawer.getByRole('button', { name: 'Start', exact: true }).click();
  await expect.poll(() => drawer.getByText(/Finding a host for it…|Booting…|Running and ready for runs\./).first().isVisible()).toBe(true);
  await expect.poll(() => drawer.getByText('Running and ready for runs.').isVisible(), { timeout: 30_000 }).toBe(true);

  // The live view plays (a JPEG frame arrived) and knows the device's size from a screenshot.
  const live = drawer.getByTestId('live-view');
  await expect.poll(() => live.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
  await expect.poll(() => drawer.getByText('Click the picture to tap the device there (1080×2400 px).').isVisible()).toBe(true);
  await page.waitForTimeout(600); // a couple of frames, so the picture is the settled screen
  await checkLivePage(page, 'device-cloud-live');

  // Tap through the picture on a clickable element of the screen: the picture changes.
  const id = Number(new URL(page.url()).searchParams.get('device'));
  const tree = await (await w.t.app.modules.devices.services.host.driver(id)).uiTree();
  const target = tree.find((e) => e.clickable && e.text);
  expect(target, 'a clickable element with text on the home screen').toBeDefined();
  await live.scrollIntoViewIfNeeded();
  const box = (await live.boundingBox())!;
  const cx = (target!.bounds.left + target!.bounds.right) / 2;
  const cy = (target!.bounds.top + target!.bounds.bottom) / 2;
  const before = await live.screenshot();
  await page.mouse.click(box.x + (cx / 1080) * box.width, box.y + (cy / 2400) * box.height);
  const said = drawer.getByText(/^Tapped at \d+, \d+/);
  await expect.poll(async () => (await said.isVisible()) || (await drawer.getByRole('alert').allInnerTexts()).join(' ')).toBe(true);
  expect(await said.innerText()).toContain(target!.text);
  await expect.poll(async () => (await live.screenshot()).equals(before), { timeout: 10_000 }).toBe(false);

  // A screenshot: shown at full size, with a download link.
  await drawer.getByRole('button', { name: 'Take a screenshot' }).click();
  const shot = page.getByRole('dialog', { name: `Screenshot of ${DEVICE}` });
  await expect.poll(() => shot.getByTestId('screenshot-image').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1080);
  expect(await shot.getByRole('link', { name: 'Download PNG' }).getAttribute('download')).toMatch(/\.png$/);
  await checkLivePage(page, 'device-cloud-screenshot');
  // One Escape closes one layer: the screenshot, not the drawer under it; the next one closes the drawer.
  await page.keyboard.press('Escape');
  await expect.poll(() => shot.isVisible()).toBe(false);
  await page.waitForTimeout(500); // longer than any closing transition
  expect(await drawer.isVisible(), 'the device drawer is still open after one Escape').toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => drawer.isVisible()).toBe(false);
  drawer = await openDrawer(page);

  // Apps: a file that is not an APK is refused with the API's sentence; a real APK installs.
  await expect.poll(() => drawer.getByRole('table', { name: 'Installed apps' }).innerText()).toMatch(/com\.example/);
  const fileInput = drawer.locator('input[type=file]');
  await fileInput.setInputFiles({ name: 'broken.apk', mimeType: 'application/vnd.android.package-archive', buffer: Buffer.from('this is not a zip') });
  await drawer.getByRole('button', { name: 'Install', exact: true }).click();
  await expect.poll(() => drawer.getByRole('alert').filter({ hasText: 'Could not install the APK' }).innerText()).toMatch(/APK/);
  const apk = await buildApk({ package: 'org.example.console', label: 'Console upload', versionName: '2.0', versionCode: 20 });
  await fileInput.setInputFiles({ name: 'console-upload.apk', mimeType: 'application/vnd.android.package-archive', buffer: readFileSync(apk) });
  await drawer.getByRole('button', { name: 'Install', exact: true }).click();
  await expect.poll(() => drawer.getByText('Installed Console upload (org.example.console 2.0).').isVisible()).toBe(true);
  await expect.poll(() => drawer.getByRole('table', { name: 'Installed apps' }).innerText()).toMatch(/Console upload\s+org\.example\.console\s+2\.0/);
  await drawer.getByRole('table', { name: 'Installed apps' }).scrollIntoViewIfNeeded();
  await checkLivePage(page, 'device-cloud-apps');

  // A run: the macro chosen, started, and the run page opens with the cloud run's id.
  await drawer.getByRole('button', { name: 'Start run…' }).click();
  const start = page.getByRole('dialog', { name: 'Start a run on this device' });
  await start.getByRole('combobox', { name: 'Macro' }).click();
  await page.getByRole('option', { name: 'Cloud logger (block)' }).click();
  await start.getByRole('textbox', { name: 'Arguments (optional)' }).fill('not json');
  await start.getByRole('button', { name: 'Start run' }).click();
  await expect.poll(() => start.getByRole('alert').innerText()).toMatch(/not valid JSON/);
  await start.getByRole('textbox', { name: 'Arguments (optional)' }).fill('{"speed": 3}');
  await expectAccessible(page, 'start run dialog');
  await start.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/\/runs\/\d+\?cloud_run=\d+$/);
  const cloudRunId = Number(new URL(page.url()).searchParams.get('cloud_run'));
  await expect.poll(() => page.getByText(/^cr_[0-9a-f]{24}$/).isVisible()).toBe(true);
  // Its log lines arrive while the page is open (the live tail), and the cloud state follows.
  const log = page.locator('pre.log-view');
  await expect.poll(() => log.innerText().catch(() => ''), { timeout: 20_000 }).toMatch(/log: hello from the cloud/);
  await expect.poll(() => log.innerText(), { timeout: 20_000 }).toMatch(/log: still here/);
  await expect.poll(() => page.getByTestId('cloud-run-state').innerText()).toBe('running');
  expect(await page.getByRole('main').getByRole('button', { name: 'Stop run' }).isVisible()).toBe(true);
  await page.waitForLoadState('networkidle');
  await checkLivePage(page, 'run-cloud');

  // Opened again from the run history (no cloud_run in the URL): Stop is there, and stops it;
  // the wait was cut short.
  const { execution_id: executionId } = await w.t.db.kysely.selectFrom('cloud_runs').select('execution_id').where('id', '=', cloudRunId).executeTakeFirstOrThrow();
  await stopFromHistory(w, executionId);
  expect(await log.innerText()).not.toMatch(/never/);
  await cloudRunNotFound(w);
  await failedRunTrace(w, id);

  // Stop the device, then delete it from the drawer.
  await openFromNav(page, 'Devices');
  drawer = await openDrawer(page);
  await drawer.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect.poll(() => drawer.getByText('Stopped. It costs nothing while stopped.').isVisible(), { timeout: 30_000 }).toBe(true);
  await drawer.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog', { name: 'Delete this cloud device?' }).getByRole('button', { name: 'Delete cloud device' }).click();
  await expect.poll(() => page.getByRole('row', { name: new RegExp(DEVICE) }).count()).toBe(0);
  expect(await w.t.db.kysely.selectFrom('devices').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
}
