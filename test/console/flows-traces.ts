// A failed cloud run's trace on its run page (issue 32 point 4): a block macro that opens an app
// and then waits for a button that is not there runs twice on the ready cloud device; the run
// page says in words which step failed and selects it, shows its frames and the log's last
// lines, offers the HTML page to download, and compares the steps with the last finished run.
import { expect } from 'vitest';
import { expectAccessible, SCREENSHOTS } from './harness.js';
import type { World } from './world.js';

type Answer = { status: number; body: Record<string, unknown> };

/** A same-origin call with the page's session cookie, as the console makes it. */
async function call(w: World, method: string, path: string, body?: unknown): Promise<Answer> {
  return w.page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    { method, path, body },
  );
}

async function failedRun(w: World, deviceId: number, macroId: number): Promise<number> {
  const started = await call(w, 'POST', `/api/hosted/devices/${deviceId}/run`, { macro_id: macroId });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  await expect.poll(async () => (await call(w, 'GET', `/api/hosted/runs/${String(started.body.id)}`)).body.state, { timeout: 30_000 }).toBe('failed');
  const history = await call(w, 'GET', `/api/executions?macro_id=${macroId}&page_size=5`);
  const row = (history.body.rows as { id: number; execution_id: string }[]).find((r) => r.execution_id === started.body.execution_id);
  expect(row).toBeDefined();
  return row!.id;
}

export async function failedRunTrace(w: World, deviceId: number): Promise<void> {
  const { page } = w;
  const program = { version: 1, steps: [{ type: 'open_app', package: 'com.example.shop' }, { type: 'tap', selector: { text: 'No such button' }, timeout_ms: 1500 }] };
  const macro = await call(w, 'POST', '/api/macros', { name: 'Traced failure', kind: 'block', blocks: program });
  expect(macro.status, JSON.stringify(macro.body)).toBe(201);
  const macroId = Number(macro.body.id);
  await failedRun(w, deviceId, macroId);
  const second = await failedRun(w, deviceId, macroId);

  await page.goto(`${w.base}/runs/${second}`);
  // The failed step in words, selected, with its error and frames.
  const alert = page.getByRole('alert').filter({ hasText: 'The run failed at step 2: tap' });
  await expect.poll(() => alert.isVisible(), { timeout: 20_000 }).toBe(true);
  expect(await alert.innerText()).toMatch(/No element text='No such button' after 1\.5 s/);
  expect(await page.getByRole('row', { selected: true }).innerText()).toMatch(/^2\s/);
  expect(await page.getByText('The run failed at this step').isVisible()).toBe(true);
  const before = page.getByRole('img', { name: /The screen before step 2 \(tap\)/ });
  await expect.poll(() => before.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
  await expect.poll(() => page.getByLabel("The log's last lines when the run failed").innerText()).toMatch(/step 2\/2: tap text='No such button'/);
  // Another step is one click away, in the timeline or the filmstrip.
  await page.getByRole('list', { name: 'Filmstrip' }).getByRole('button', { name: /^1\s*app_open/ }).click();
  expect(await page.getByRole('row', { selected: true }).innerText()).toMatch(/^1\s/);
  const download = page.getByRole('link', { name: 'Download trace' });
  expect(await download.getAttribute('href')).toMatch(/^\/api\/executions\/cr_[0-9a-f]{24}\/trace\.html$/);
  expect(await download.getAttribute('download')).toMatch(/^trace-cr_[0-9a-f]{24}\.html$/);
  // The same steps as the first run, with the same outcomes.
  await page.getByRole('button', { name: 'Compare with the last finished run' }).click();
  await expect.poll(() => page.getByText('Same steps as the last finished run').isVisible()).toBe(true);
  await page.getByRole('list', { name: 'Filmstrip' }).getByRole('button', { name: /^2\s*tap\s*, failed/ }).click();
  await page.waitForLoadState('networkidle');
  await expectAccessible(page, 'run trace');
  // The trace card alone, for docs/runs.md.
  const card = page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: /^Trace/ }) });
  await card.scrollIntoViewIfNeeded();
  // The fixed header would cover the card's top in an element screenshot.
  await card.screenshot({ path: `${SCREENSHOTS}/run-trace.png`, animations: 'disabled', caret: 'hide', style: '.mantine-AppShell-header { visibility: hidden !important; }' });
}
