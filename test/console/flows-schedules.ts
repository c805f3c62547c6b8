// Schedules: made through the console's form on a new cloud device (a bad cron expression is
// refused first, the field named, nothing stored); the list names the device and shows the
// next fire time; the page shows the next fire times and occurrences; editing moves the rule.
// Firing itself, and the occurrence's link to its run, are tested without a browser
// (test/modules/scheduler/firing.test.ts).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { checkPage } from './harness.js';
import { openFromNav, type World } from './world.js';

async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('dialog').getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

export async function schedules(w: World): Promise<void> {
  const { page } = w;
  const post = async (url: string, data: object) => {
    const res = await page.request.post(`${w.base}${url}`, { data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as { id: number };
  };
  await post('/api/macros', { name: 'Morning check', kind: 'block', blocks: { version: 1, steps: [{ type: 'log', message: 'good morning' }] } });
  await post('/api/hosted/devices', { name: 'Scheduled phone' });
  const count = async () => ((await (await page.request.get(`${w.base}/api/schedules`)).json()) as { total_rows: number }).total_rows;
  const before = await count();

  await openFromNav(page, 'Schedules');
  await page.getByRole('button', { name: 'New schedule' }).click();
  const dialog = page.getByRole('dialog', { name: 'New schedule' });
  await choose(page, 'Macro', 'Morning check');
  await choose(page, 'Cloud device', 'Scheduled phone');
  await dialog.getByRole('textbox', { name: 'When (cron)' }).fill('0 9 * * * *');
  await dialog.getByRole('textbox', { name: 'Time zone' }).fill('Europe/Berlin');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Every minute');
  await dialog.getByRole('button', { name: 'Create schedule' }).click();
  // Six fields: refused, the field named, nothing stored, the form still open.
  await expect.poll(() => dialog.innerText()).toMatch(/The schedule was not saved[\s\S]*cron/);
  expect(await count()).toBe(before);

  await dialog.getByRole('textbox', { name: 'When (cron)' }).fill('* * * * *');
  await dialog.getByRole('button', { name: 'Create schedule' }).click();
  await expect.poll(() => page.getByRole('status').innerText()).toMatch(/Saved “Every minute”: it fires next at .*\+0[12]:00/);
  expect(await count()).toBe(before + 1);
  const row = page.getByRole('row', { name: /Every minute/ });
  await expect.poll(() => row.innerText()).toMatch(/\* \* \* \* \*[\s\S]*Europe\/Berlin[\s\S]*Scheduled phone \(device \d+\)[\s\S]*\+0[12]:00[\s\S]*enabled/);
  await checkPage(page, 'schedules');

  await row.getByRole('link', { name: 'Every minute' }).click();
  await expect.poll(() => page.getByText('Next fire times').isVisible()).toBe(true);
  await checkPage(page, 'schedule-occurrences');

  // Editing: every weekday at 09:00 in New York instead.
  await openFromNav(page, 'Schedules');
  await page.getByRole('button', { name: 'Edit Every minute' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit schedule' });
  await edit.getByRole('textbox', { name: 'When (cron)' }).fill('0 9 * * 1-5');
  await edit.getByRole('textbox', { name: 'Time zone' }).fill('America/New_York');
  await edit.getByRole('button', { name: 'Save schedule' }).click();
  await expect.poll(() => page.getByRole('row', { name: /Every minute/ }).innerText()).toMatch(/0 9 \* \* 1-5[\s\S]*America\/New_York[\s\S]*T09:00:00-0[45]:00/);
}
