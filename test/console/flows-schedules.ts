// Schedules: one made through the API on a new cloud device; the console lists it with its
// next fire time and opens its page (next fire times, occurrences). Firing itself, and the
// occurrence's link to its run, are tested without a browser (test/modules/scheduler/firing.test.ts).
import { expect } from 'vitest';
import { checkPage } from './harness.js';
import { openFromNav, type World } from './world.js';

export async function schedules(w: World): Promise<void> {
  const { page } = w;
  const post = async (url: string, data: object) => {
    const res = await page.request.post(`${w.base}${url}`, { data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as { id: number };
  };
  const macro = await post('/api/macros', { name: 'Morning check', kind: 'block', blocks: { version: 1, steps: [{ type: 'log', message: 'good morning' }] } });
  const device = await post('/api/hosted/devices', { name: 'Scheduled phone' });
  await post('/api/schedules', { name: 'Every minute', macro_id: macro.id, device_id: device.id, cron: '* * * * *', timezone: 'Europe/Berlin' });

  await openFromNav(page, 'Schedules');
  const row = page.getByRole('row', { name: /Every minute/ });
  await expect.poll(() => row.innerText()).toMatch(/\* \* \* \* \*[\s\S]*Europe\/Berlin[\s\S]*device #\d+[\s\S]*\+0[12]:00[\s\S]*enabled/);
  await checkPage(page, 'schedules');

  await row.getByRole('link', { name: 'Every minute' }).click();
  await expect.poll(() => page.getByText('Next fire times').isVisible()).toBe(true);
  await checkPage(page, 'schedule-occurrences');
}
