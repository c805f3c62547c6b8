// Schedules: made through the console's form on a new cloud device (a bad cron expression is
// refused first, in plain words on the field, nothing stored; the rule is read back in words as
// it is typed); the list names the device and shows the rule in words and the next fire time as
// a person reads it (weekday, time in the schedule's zone, the offset, how far off); the page
// shows the next fire times and follows its occurrences, one appearing without a reload when a
// fire pass starts it; editing moves the rule. Firing itself, and the occurrence's link to its
// run, are tested without a browser (test/modules/scheduler/firing.test.ts).
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
  // Six fields: refused, said in plain words on the field itself (not the API's sentence at
  // the top), nothing stored, the form still open.
  const cronField = dialog.getByRole('textbox', { name: 'When (cron)' });
  await expect.poll(() => cronField.getAttribute('aria-invalid')).toBe('true');
  const fieldError = dialog.getByText(/^This rule must have exactly five fields/);
  await expect.poll(() => fieldError.innerText()).toMatch(/^This rule must have exactly five fields \(minute hour day-of-month month day-of-week\); it has six \(a seconds field is not accepted\)\.$/);
  expect(await cronField.getAttribute('aria-describedby')).toContain(await fieldError.getAttribute('id'));
  expect(await dialog.innerText()).not.toMatch(/Validation failed|body\.cron/);
  expect(await count()).toBe(before);
  await checkPage(page, 'schedule-cron-refused');

  await cronField.fill('* * * * *');
  // The rule read back in words as it is typed.
  await expect.poll(() => dialog.getByText('Reads as: Every minute').isVisible()).toBe(true);
  await dialog.getByRole('button', { name: 'Create schedule' }).click();
  // Fire times as a person reads them: weekday, date, time in the schedule's zone with its offset, how far off.
  const FIRE = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \\d{1,2} [A-Z][a-z]{2}, \\d\\d:\\d\\d GMT\\+[12]';
  await expect.poll(() => page.getByRole('status').innerText()).toMatch(new RegExp(`Saved “Every minute”: it fires next on ${FIRE} \\((in \\d+ min|now)\\)\\.`));
  expect(await count()).toBe(before + 1);
  const row = page.getByRole('row', { name: /Every minute/ });
  await expect.poll(() => row.innerText()).toMatch(new RegExp(`Every minute\\s+Every minute\\s+\\* \\* \\* \\* \\* · Europe/Berlin\\s+Scheduled phone \\(device \\d+\\)\\s+${FIRE}\\s+(in \\d+ min|now)[\\s\\S]*enabled`));
  // One line for the fire time, not an RFC 3339 string wrapping over three.
  const nextFire = row.getByRole('cell').nth(3).getByText(new RegExp(`^${FIRE}$`));
  expect((await nextFire.boundingBox())!.height).toBeLessThan(30);
  await checkPage(page, 'schedules');

  await row.getByRole('link', { name: 'Every minute' }).click();
  const nextFires = page.getByRole('list', { name: 'Next fire times (Europe/Berlin)' });
  await expect.poll(() => nextFires.getByRole('listitem').count()).toBe(5);
  expect(await nextFires.getByRole('listitem').first().innerText()).toMatch(new RegExp(`^${FIRE} · (in \\d+ min|now)$`));
  await expect.poll(() => page.getByText('Nothing has fired yet').isVisible()).toBe(true);
  // A fire pass starts an occurrence (made due now rather than waiting for the minute): the
  // page shows it without a reload.
  const scheduleId = Number(new URL(page.url()).pathname.split('/').pop());
  const navigations: string[] = [];
  const navigated = (frame: { url(): string }) => navigations.push(frame.url());
  page.on('framenavigated', navigated);
  await w.t.db.kysely.updateTable('schedules').set({ next_fire_at: Math.floor(Date.now() / 60_000) * 60_000 }).where('id', '=', scheduleId).execute();
  await w.t.app.modules.scheduler.services.newWorker('console-e2e').runOnce();
  // The cloud workers' own scheduler may add the next minute's occurrence beside it when the
  // test runs across a minute's end: either row shows what is asserted.
  const occurrence = page.getByRole('row', { name: /Scheduled phone/ }).first();
  await expect.poll(() => occurrence.innerText()).toMatch(new RegExp(`${FIRE} · (\\d+ min ago|now)\\s+Scheduled phone\\s+(started|skipped|missed)`));
  page.off('framenavigated', navigated);
  expect(navigations).toEqual([]);
  await checkPage(page, 'schedule-occurrences');

  // Editing: every weekday at 09:00 in New York instead.
  await openFromNav(page, 'Schedules');
  await page.getByRole('button', { name: 'Edit Every minute' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit schedule' });
  await edit.getByRole('textbox', { name: 'When (cron)' }).fill('0 9 * * 1-5');
  await edit.getByRole('textbox', { name: 'Time zone' }).fill('America/New_York');
  await edit.getByRole('button', { name: 'Save schedule' }).click();
  await expect.poll(() => page.getByRole('row', { name: /Every minute/ }).innerText()).toMatch(/At 09:00, Monday through Friday\s+0 9 \* \* 1-5 · America\/New_York[\s\S]*(Mon|Tue|Wed|Thu|Fri) \d{1,2} [A-Z][a-z]{2}, 09:00 GMT-[45]\s+in \d+ [hd]/);
}
