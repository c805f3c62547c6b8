// Menu maps from the console: an app explored on a cloud device (followed until done), the
// learned map listed, drawn as a graph with thumbnails and listed as transitions, then deleted.
import { expect } from 'vitest';
import { checkPage } from './harness.js';
import { openFromNav, type World } from './world.js';

export async function menuMaps(w: World): Promise<void> {
  const { page } = w;
  // A cloud device for it, made with the session as the devices page would.
  const made = await page.evaluate(async () => (await fetch('/api/hosted/devices', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Explorer phone' }) })).status);
  expect(made).toBe(201);
  await openFromNav(page, 'Menu maps');
  await expect.poll(() => page.getByText('No maps yet').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Explore an app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Explore an app' });
  await dialog.getByRole('combobox', { name: 'Cloud device', exact: true }).click();
  await page.getByRole('option', { name: 'Explorer phone' }).click();
  await expect.poll(() => dialog.getByRole('textbox', { name: 'App package' }).inputValue()).toBe('com.example.shop');
  await dialog.getByRole('button', { name: 'Start exploring' }).click();
  const status = page.getByRole('status').filter({ hasText: 'Exploring com.example.shop' });
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
  await checkPage(page, 'menu-map');

  await page.getByRole('button', { name: 'Delete map' }).click();
  await expect.poll(() => page.getByText('No maps yet').isVisible()).toBe(true);
}
