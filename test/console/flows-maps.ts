// Menu maps from the console: an app chosen from a running cloud device's installed apps and
// explored (followed until done, without a "No maps yet" beside it), the learned map listed,
// drawn as a graph with thumbnails and labelled arrows and listed as transitions, then deleted
// after a confirmation.
import { expect } from 'vitest';
import { checkPage } from './harness.js';
import { openFromNav, type World } from './world.js';

export async function menuMaps(w: World): Promise<void> {
  const { page } = w;
  // A cloud device for it, made and started with the session as the devices page would: a
  // running device lists its apps for the choice.
  const made = await page.evaluate(async () => {
    const res = await fetch('/api/hosted/devices', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Explorer phone' }) });
    const device = (await res.json()) as { id: number };
    const started = await fetch(`/api/hosted/devices/${device.id}/start`, { method: 'POST' });
    return { status: res.status, started: started.status, id: device.id };
  });
  expect(made.status).toBe(201);
  expect([200, 202]).toContain(made.started);
  const ready = async () => ((await page.evaluate(async () => (await fetch('/api/emulator/devices?page_size=200')).json())) as { rows: { id: number; hosted_state: string }[] }).rows.find((d) => d.id === made.id)?.hosted_state;
  await expect.poll(ready, { timeout: 30_000 }).toBe('ready');
  await openFromNav(page, 'Menu maps');
  await expect.poll(() => page.getByText('No maps yet').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Explore an app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Explore an app' });
  await dialog.getByRole('combobox', { name: 'Cloud device', exact: true }).click();
  await page.getByRole('option', { name: 'Explorer phone' }).click();
  // The app is chosen from the device's installed apps, not typed.
  expect(await dialog.getByRole('textbox', { name: 'App package' }).count()).toBe(0);
  await dialog.getByRole('combobox', { name: 'App', exact: true }).click();
  await expect.poll(() => page.getByRole('option', { name: 'Corner Shop (com.example.shop)' }).isVisible()).toBe(true);
  await checkPage(page, 'menu-map-explore');
  await page.getByRole('option', { name: 'Corner Shop (com.example.shop)' }).click();
  await dialog.getByRole('button', { name: 'Start exploring' }).click();
  const status = page.getByRole('status').filter({ hasText: 'Exploring com.example.shop' });
  // While it explores, the page does not also say there are no maps.
  await expect.poll(() => status.isVisible()).toBe(true);
  expect(await page.getByText('No maps yet').count()).toBe(0);
  await expect.poll(() => status.innerText(), { timeout: 60_000 }).toMatch(/: done[\s\S]*9 screens/);
  const row = page.getByRole('row', { name: /com\.example\.shop/ });
  await expect.poll(() => row.innerText()).toMatch(/com\.example\.shop\s+9\s+\d+/);
  await checkPage(page, 'menu-maps');

  await row.getByRole('link', { name: 'com.example.shop' }).click();
  const graph = page.getByRole('img', { name: /Graph of 9 screens/ });
  await expect.poll(() => graph.isVisible()).toBe(true);
  // Every card has its thumbnail, and they load.
  await expect.poll(() => graph.locator('image').count()).toBe(9);
  await expect.poll(() => page.getByRole('row', { name: /Corner Shop\s+tap Checkout\s+Checkout/ }).isVisible()).toBe(true);
  // Every tap's arrow is labelled with what was tapped, as the table lists them (BACK is the dashed style).
  const taps = (await page.getByRole('table').locator('tbody tr td:nth-child(2)').allInnerTexts()).filter((action) => action.startsWith('tap ')).length;
  expect(taps).toBeGreaterThan(0);
  expect(await graph.locator('[data-edge-label]').count()).toBe(taps);
  expect(await graph.locator('[data-edge-label="tap Checkout"] text').first().textContent()).toBe('Checkout');
  await checkPage(page, 'menu-map');

  // Deleting asks first, as every delete does; Cancel keeps the map.
  await page.getByRole('button', { name: 'Delete map' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this map?' });
  await expect.poll(() => confirm.innerText()).toMatch(/The map of com\.example\.shop is deleted with its 9 screens/);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  expect((await page.evaluate(async () => (await fetch('/api/maps')).json())) as { items: unknown[] }).toMatchObject({ items: [expect.anything()] });
  await page.getByRole('button', { name: 'Delete map' }).click();
  await confirm.getByRole('button', { name: 'Delete map' }).click();
  await expect.poll(() => page.getByText('No maps yet').isVisible()).toBe(true);
}
