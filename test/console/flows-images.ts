// The image library from the console: empty at first; an upload refused in the service's
// words (not a picture) and in the page's (over 5 MiB), then a PNG uploaded and previewed; a
// template cropped from a ready cloud device's screen by dragging on the picture (stored with
// source "crop" and the size the page showed); the list filtered by source; the upload
// deleted after its confirmation.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { patternImage } from '../helpers/images.js';
import { startCloudWorkers } from './flows-cloud.js';
import { checkPage, expectAccessible, SCREENSHOTS, VIEWPORT } from './harness.js';
import { openFromNav, type World } from './world.js';

const DEVICE = 'Crop phone';

/** Makes and starts a cloud device with the session, as the devices page would, and waits for ready. */
async function readyCloudDevice(page: Page): Promise<number> {
  const id = await page.evaluate(async (name) => {
    const made = await fetch('/api/hosted/devices', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
    const { id } = (await made.json()) as { id: number };
    await fetch(`/api/hosted/devices/${id}/start`, { method: 'POST' });
    return id;
  }, DEVICE);
  const state = () =>
    page.evaluate(async (deviceId) => ((await (await fetch('/api/emulator/devices?page_size=200')).json()) as { rows: { id: number; hosted_state?: string }[] }).rows.find((d) => d.id === deviceId)?.hosted_state, id);
  await expect.poll(state, { timeout: 30_000 }).toBe('ready');
  return id;
}

export async function imageLibrary(w: World): Promise<void> {
  const { page } = w;
  if (!w.cloudWorkers) startCloudWorkers(w);
  await openFromNav(page, 'Images');
  await expect.poll(() => page.getByText('No images yet').isVisible()).toBe(true);

  // Uploads: a file that is not a picture is refused by the service; one over 5 MiB by the page.
  await page.getByRole('button', { name: 'Upload image', exact: true }).click();
  const upload = page.getByRole('dialog', { name: 'Upload an image' });
  const file = upload.locator('input[type=file]');
  await file.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('these are words, not pixels') });
  expect(await upload.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('notes');
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect.poll(() => upload.getByRole('alert').innerText()).toMatch(/The image was not uploaded[\s\S]*(PNG|JPEG|picture|image)/i);
  await file.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect.poll(() => upload.getByRole('alert').innerText()).toMatch(/up to 5 MiB/);
  await file.setInputFiles({ name: 'coin.png', mimeType: 'image/png', buffer: await patternImage(64, 40) });
  await upload.getByRole('textbox', { name: 'Name' }).fill('Gold coin');
  await expectAccessible(page, 'upload image dialog');
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect.poll(() => upload.isVisible()).toBe(false);
  const coinRow = page.getByRole('row', { name: /Gold coin/ });
  await expect.poll(() => coinRow.innerText()).toMatch(/Gold coin\s+img_[0-9a-f]{16}\s+64×40 px\s+PNG, [\d.]+ KB\s+Upload/);
  // Its thumbnail loads, and opens a preview with the id a macro uses.
  await expect.poll(() => coinRow.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(64);
  await coinRow.getByRole('button', { name: 'Preview Gold coin' }).click();
  const preview = page.getByRole('dialog', { name: 'Gold coin' });
  await expect.poll(() => preview.getByTestId('image-preview').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(64);
  expect(await preview.innerText()).toMatch(/img_[0-9a-f]{16}[\s\S]*64×40 px, PNG/);
  await page.keyboard.press('Escape');
  await expect.poll(() => preview.isVisible()).toBe(false);

  // Crop from a ready cloud device: drag a rectangle on its screen, name it, save.
  const deviceId = await readyCloudDevice(page);
  await openFromNav(page, 'Devices');
  await page.getByRole('button', { name: `Open ${DEVICE}` }).click();
  const drawer = page.getByRole('dialog', { name: DEVICE });
  await drawer.getByRole('button', { name: 'Crop a template…' }).click();
  const cropper = page.getByRole('dialog', { name: 'Crop a template from the screen' });
  const surface = cropper.getByTestId('crop-surface');
  await expect.poll(() => surface.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1080);
  // Around the launcher's Corner Shop icon, dragged from corner to corner on the picture.
  const tree = await (await w.t.app.modules.devices.services.host.driver(deviceId)).uiTree();
  const icon = tree.find((e) => e.text === 'Corner Shop' || e.content_desc === 'Corner Shop');
  expect(icon, 'the launcher shows Corner Shop').toBeDefined();
  const { left, top, right, bottom } = icon!.bounds;
  const box = (await surface.boundingBox())!;
  const at = (x: number, y: number) => [box.x + (x / 1080) * box.width, box.y + (y / 2400) * box.height] as const;
  await page.mouse.move(...at(left, top));
  await page.mouse.down();
  await page.mouse.move(...at((left + right) / 2, (top + bottom) / 2), { steps: 4 });
  await page.mouse.move(...at(right, bottom), { steps: 4 });
  await page.mouse.up();
  const field = (label: string) => cropper.getByRole('textbox', { name: label, exact: true }).inputValue().then(Number);
  const drawn = { x: await field('Left'), y: await field('Top'), w: await field('Width'), h: await field('Height') };
  // One pixel of the picture on the page is about 5 device pixels.
  const slack = Math.ceil(1080 / box.width) + 1;
  expect(Math.abs(drawn.x - left)).toBeLessThanOrEqual(slack);
  expect(Math.abs(drawn.y - top)).toBeLessThanOrEqual(slack);
  expect(Math.abs(drawn.w - (right - left))).toBeLessThanOrEqual(2 * slack);
  expect(Math.abs(drawn.h - (bottom - top))).toBeLessThanOrEqual(2 * slack);
  expect(await cropper.getByTestId('crop-preview').isVisible()).toBe(true);
  // The keyboard's way: exact device pixels typed in.
  await cropper.getByRole('textbox', { name: 'Left', exact: true }).fill(String(left));
  await cropper.getByRole('textbox', { name: 'Width', exact: true }).fill(String(right - left));
  await cropper.getByRole('textbox', { name: 'Name', exact: true }).fill('Corner Shop icon');
  await cropper.getByRole('button', { name: 'Save to library' }).click();
  await expect.poll(() => cropper.getByRole('status').innerText()).toMatch(/Saved “Corner Shop icon” as img_[0-9a-f]{16}/);
  await page.mouse.move(VIEWPORT.width - 2, VIEWPORT.height - 2);
  await expectAccessible(page, 'crop dialog');
  await page.screenshot({ path: `${SCREENSHOTS}/image-crop.png`, animations: 'disabled', caret: 'hide' });
  const cropped = await page.evaluate(async () => ((await (await fetch('/api/images?source=crop')).json()) as { rows: { name: string; width: number; height: number; source: string }[] }).rows);
  expect(cropped).toEqual([expect.objectContaining({ name: 'Corner Shop icon', width: right - left, height: drawn.h, source: 'crop' })]);
  await cropper.getByRole('link', { name: 'Open the image library' }).click();
  await page.waitForURL(/\/images$/);

  // The library lists both, newest first, and filters by source.
  await expect.poll(() => page.getByRole('row').nth(1).innerText()).toMatch(new RegExp(`Corner Shop icon\\s+img_[0-9a-f]{16}\\s+${right - left}×${drawn.h} px\\s+PNG, [\\d.]+ KB\\s+Crop`));
  await checkPage(page, 'images');
  await page.getByRole('combobox', { name: 'Source' }).click();
  await page.getByRole('option', { name: 'Cropped from a screen' }).click();
  await expect.poll(() => page.getByRole('row', { name: /Gold coin/ }).count()).toBe(0);
  expect(await page.getByRole('row', { name: /Corner Shop icon/ }).count()).toBe(1);
  await page.getByRole('combobox', { name: 'Source' }).click();
  await page.getByRole('option', { name: 'Uploaded' }).click();

  // Delete asks first, then the row goes.
  await page.getByRole('button', { name: 'Delete Gold coin' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this image?' });
  expect(await confirm.innerText()).toMatch(/Macros that still name it fail/);
  await confirm.getByRole('button', { name: 'Delete image' }).click();
  await expect.poll(() => page.getByRole('row', { name: /Gold coin/ }).count()).toBe(0);
  expect(await page.evaluate(async () => ((await (await fetch('/api/images')).json()) as { total_rows: number }).total_rows)).toBe(1);

  // The device is not needed by later steps.
  expect(await page.evaluate(async (id) => (await fetch(`/api/hosted/devices/${id}`, { method: 'DELETE' })).status, deviceId)).toBe(204);
}
