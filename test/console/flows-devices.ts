// Groups and devices (created, changed, listed with filters), and runs: a local run
// reported through the page, its log tailed live, its end reported, the history filtered.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { appendLogBatch } from '../../src/modules/run-logs/store.js';
import { checkPage } from './harness.js';
import { openFromNav, type World } from './world.js';

/** `YYYY-MM-DDTHH:MM` in local time, as <input type="datetime-local"> takes it. */
function localMinute(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

async function choose(page: Page, label: string, option: string, scope = page.getByRole('dialog')): Promise<void> {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

export async function groupsAndDevices(w: World): Promise<void> {
  const { page } = w;
  await openFromNav(page, 'Groups');
  for (const [name, kind, description] of [['Office phones', 'Devices on my machine', 'The test bench by the window'], ['Cloud fleet', 'Cloud devices', 'Shop checkout runs']]) {
    await page.getByRole('button', { name: 'New group' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.locator('label', { hasText: kind }).first().click();
    await dialog.getByRole('textbox', { name: 'Description', exact: true }).fill(description);
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await expect.poll(() => page.getByRole('row', { name: new RegExp(name) }).isVisible()).toBe(true);
  }

  await openFromNav(page, 'Devices');
  for (const [name, port, group] of [['Pixel 7', '5555', 'Office phones'], ['Galaxy S23', '5557', 'Office phones'], ['Emulator 34', '5559', null]] as const) {
    await page.getByRole('button', { name: 'Local device', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('textbox', { name: 'ADB port', exact: true }).fill(port);
    if (group) await choose(page, 'Group', group);
    await dialog.getByRole('button', { name: 'Add device' }).click();
    await expect.poll(() => page.getByRole('row', { name: new RegExp(name) }).isVisible()).toBe(true);
  }
  await page.getByRole('button', { name: 'Cloud device', exact: true }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Name', exact: true }).fill('Cloud phone 1');
  await choose(page, 'Group', 'Cloud fleet');
  await page.getByRole('dialog').getByRole('button', { name: 'Add device' }).click();
  await expect.poll(() => page.getByRole('row', { name: /Cloud phone 1/ }).innerText()).toMatch(/Cloud[\s\S]*stopped[\s\S]*Cloud fleet/);

  // The device follows a macro and a chosen profile of it.
  await page.getByRole('button', { name: 'Edit Pixel 7' }).click();
  await choose(page, 'Macro', 'Checkout flow (Python)');
  await choose(page, 'Settings profile', 'Fast');
  await page.getByRole('dialog').getByRole('button', { name: 'Save device' }).click();
  await expect.poll(() => page.getByRole('row', { name: /Pixel 7/ }).innerText()).toMatch(/Checkout flow/);
  const pixel = await w.t.db.kysely.selectFrom('devices').select(['macro_id', 'profile_id']).where('name', '=', 'Pixel 7').executeTakeFirstOrThrow();
  const fast = await w.t.db.kysely.selectFrom('macro_setting_profiles').select('id').where('name', '=', 'Fast').executeTakeFirstOrThrow();
  expect(pixel).toEqual({ macro_id: w.macros.python, profile_id: fast.id });

  // Filters: by group, by name.
  await choose(page, 'Group', 'Office phones', page.getByRole('main'));
  await expect.poll(() => page.getByText('1–2 of 2 devices').isVisible()).toBe(true);
  await page.getByRole('textbox', { name: 'Filter by name' }).fill('galaxy');
  await expect.poll(() => page.getByText('1–1 of 1 device', { exact: true }).isVisible()).toBe(true);
  await page.getByRole('textbox', { name: 'Filter by name' }).fill('');
  await page.getByRole('main').getByRole('combobox', { name: 'Group', exact: true }).click();
  await page.getByRole('option', { name: 'Office phones' }).click(); // choosing it again clears it
  await expect.poll(() => page.getByText('1–4 of 4 devices').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Local device', exact: true }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Name', exact: true }).fill('Old tablet');
  await page.getByRole('dialog').getByRole('textbox', { name: 'ADB port', exact: true }).fill('5561');
  await page.getByRole('dialog').getByRole('button', { name: 'Add device' }).click();
  await expect.poll(() => page.getByText('1–5 of 5 devices').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Delete Old tablet' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete device' }).click();
  await expect.poll(() => page.getByText('1–4 of 4 devices').isVisible()).toBe(true);
  await checkPage(page, 'devices');

  await openFromNav(page, 'Groups');
  await expect.poll(() => page.getByRole('row', { name: /Office phones/ }).innerText()).toMatch(/Local \(byod\)[\s\S]*2/);
  await page.getByRole('button', { name: 'Edit Cloud fleet' }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Description', exact: true }).fill('Shop checkout runs, Frankfurt');
  await page.getByRole('dialog').getByRole('button', { name: 'Save group' }).click();
  await expect.poll(() => page.getByRole('row', { name: /Cloud fleet/ }).innerText()).toMatch(/Frankfurt/);
  await page.getByRole('textbox', { name: 'Filter by description' }).fill('frankfurt');
  await expect.poll(() => page.getByText('1–1 of 1 group', { exact: true }).isVisible()).toBe(true);
  expect(new URL(page.url()).search).toBe('?description=frankfurt');
  // Clear filters empties the field too, and the field does not write its old text back.
  await page.getByRole('search', { name: 'Filter groups' }).getByRole('button', { name: 'Clear filters' }).click();
  await expect.poll(() => page.getByText('1–2 of 2 groups').isVisible()).toBe(true);
  expect(await page.getByRole('textbox', { name: 'Filter by description' }).inputValue()).toBe('');
  await page.waitForTimeout(600); // past the field's 300 ms pause
  expect(new URL(page.url()).search).toBe('');
  expect(await page.getByRole('button', { name: 'Clear filters' }).count()).toBe(0);
  await page.getByRole('button', { name: 'New group' }).first().click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Name', exact: true }).fill('Temporary');
  await page.getByRole('dialog').getByRole('button', { name: 'Create group' }).click();
  await page.getByRole('button', { name: 'Delete Temporary' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete group' }).click();
  await expect.poll(() => page.getByText('1–2 of 2 groups').isVisible()).toBe(true);
  await checkPage(page, 'groups');
}

export async function runs(w: World): Promise<void> {
  const { page } = w;
  await openFromNav(page, 'Run history');
  await expect.poll(() => page.getByText('No runs yet').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Report a local run' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Execution id', exact: true }).fill('local-checkout-0001');
  await choose(page, 'Macro', 'Checkout flow');
  await choose(page, 'Device', 'Pixel 7 (port 5555)');
  await dialog.getByRole('button', { name: 'Report run' }).click();
  await page.waitForURL(/\/runs\/\d+$/);
  const runId = Number(new URL(page.url()).pathname.split('/').pop());
  await expect.poll(() => page.getByText('No log lines', { exact: false }).isVisible()).toBe(true);

  // Log lines written while the page is open arrive without a reload (the cursor route).
  const lines = ['[10:00:01] open com.example.shop', '[10:00:03] tap "Cart"', '[10:00:04] found 3 items', '[10:00:06] tap "Checkout"'];
  await appendLogBatch(w.t.db, runId, lines.slice(0, 2), Date.now());
  await expect.poll(() => page.getByLabel('Log of run local-checkout-0001').innerText(), { timeout: 10_000 }).toContain('tap "Cart"');
  await appendLogBatch(w.t.db, runId, lines.slice(2), Date.now());
  await expect.poll(() => page.getByLabel('Log of run local-checkout-0001').innerText(), { timeout: 10_000 }).toBe(lines.join('\n'));
  await checkPage(page, 'run-live');

  await page.getByRole('button', { name: 'Report that it ended' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Report the end' }).click();
  await expect.poll(() => page.getByText('completed').first().isVisible()).toBe(true);
  await expect.poll(() => page.getByRole('button', { name: 'Report that it ended' }).count()).toBe(0);

  // A failed run, reported by the page's session as the application would.
  const pixel = await w.t.db.kysely.selectFrom('devices').select('id').where('name', '=', 'Galaxy S23').executeTakeFirstOrThrow();
  const started = new Date(Date.now() - 600_000).toISOString();
  const ended = new Date(Date.now() - 517_000).toISOString();
  const status = await page.evaluate(async (body) => (await fetch('/api/executions/report', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
    { execution_id: 'local-checkout-0002', status: 'failed', macro_id: w.macros.python, device_id: pixel.id, execution_type: 'python', started_at: started, ended_at: ended, exit_code: 2, error_message: 'Element "Pay now" not found after 30 s' });
  expect(status).toBe(200);

  await openFromNav(page, 'Run history');
  await expect.poll(() => page.getByText('1–2 of 2 runs').isVisible()).toBe(true);
  await page.getByRole('combobox', { name: 'Status', exact: true }).click();
  await page.getByRole('option', { name: 'failed' }).click();
  await expect.poll(() => page.getByText('1–1 of 1 run', { exact: true }).isVisible()).toBe(true);
  expect(await page.getByRole('row', { name: /local-checkout-0002/ }).innerText()).toMatch(/failed[\s\S]*Galaxy S23[\s\S]*1 min 23 s[\s\S]*2/);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect.poll(() => page.getByText('1–2 of 2 runs').isVisible()).toBe(true);
  // The time filters (the inputs speak the browser's local time, to the minute).
  await page.getByRole('textbox', { name: 'Started from', exact: true }).fill(localMinute(Date.now() - 120_000));
  await expect.poll(() => page.getByText('1–1 of 1 run', { exact: true }).isVisible()).toBe(true);
  expect(await page.getByRole('row', { name: /local-checkout-0001/ }).isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByRole('textbox', { name: 'Started until', exact: true }).fill(localMinute(Date.now() - 300_000));
  await expect.poll(() => page.getByText('1–1 of 1 run', { exact: true }).isVisible()).toBe(true);
  expect(await page.getByRole('row', { name: /local-checkout-0002/ }).isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect.poll(() => page.getByText('1–2 of 2 runs').isVisible()).toBe(true);
  await checkPage(page, 'runs');
}
