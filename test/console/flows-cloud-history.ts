// A running cloud run opened from the run history (no `?cloud_run=` in the URL): the run page
// finds the cloud run by the record's execution_id, shows its state and the Stop button, and
// stopping it from there ends the run (state and history record `stopped`). A `cr_` record
// whose cloud run cannot be read shows the API's own sentence.
import { expect } from 'vitest';
import { expectAccessible, screenshot, VIEWPORT } from './harness.js';
import { openFromNav, type World } from './world.js';

/** Opens the running cloud run `executionId` from the history list and stops it there. */
export async function stopFromHistory(w: World, executionId: string): Promise<void> {
  const { page } = w;
  await openFromNav(page, 'Run history');
  await page.getByRole('link', { name: executionId, exact: true }).click();
  await page.waitForURL(/\/runs\/\d+$/);
  expect(new URL(page.url()).searchParams.has('cloud_run')).toBe(false);
  await expect.poll(() => page.getByTestId('cloud-run-state').innerText().catch(() => '')).toBe('running');
  const stop = page.getByRole('main').getByRole('button', { name: 'Stop run' });
  expect(await stop.isVisible()).toBe(true);
  await page.mouse.move(VIEWPORT.width - 2, VIEWPORT.height - 2);
  await expectAccessible(page, 'a cloud run opened from the run history');
  await screenshot(page, 'run-cloud-history');

  await stop.click();
  await expect.poll(() => page.getByTestId('cloud-run-state').innerText(), { timeout: 20_000 }).toBe('stopped');
  // The Stop button goes once the run has ended, and the record the page shows follows.
  await expect.poll(() => stop.count()).toBe(0);
  await expect.poll(() => page.getByRole('main').getByText('stopped', { exact: true }).first().isVisible()).toBe(true);
  const row = await w.t.db.kysely.selectFrom('cloud_runs').select('state').where('execution_id', '=', executionId).executeTakeFirstOrThrow();
  expect(row.state).toBe('stopped');
  const record = await w.t.db.kysely.selectFrom('executions').select('status').where('execution_id', '=', executionId).executeTakeFirstOrThrow();
  expect(record.status).toBe('stopped');
  await expectAccessible(page, 'a stopped cloud run opened from the run history');
}

/** A `cr_` history record with no cloud run behind it: the panel shows the API's 404 sentence as written. */
export async function cloudRunNotFound(w: World): Promise<void> {
  const { page } = w;
  const db = w.t.db.kysely;
  const template = await db.selectFrom('executions').selectAll().where('execution_id', 'like', 'cr_%').orderBy('id', 'desc').executeTakeFirstOrThrow();
  // Kysely leaves an undefined column out, so the record gets a new id.
  const orphan = await db.insertInto('executions').values({ ...template, id: undefined, execution_id: `cr_${'0'.repeat(24)}` }).returning('id').executeTakeFirstOrThrow();
  await page.goto(`${w.base}/runs/${orphan.id}`);
  const alert = page.getByRole('alert').filter({ hasText: 'Could not read the cloud run' });
  await expect.poll(() => alert.innerText().catch(() => '')).toContain('No cloud run with this id.');
  expect(await page.getByRole('button', { name: 'Stop run' }).count()).toBe(0);
  await expectAccessible(page, 'a cr_ run whose cloud run is not found');
  await db.deleteFrom('executions').where('id', '=', orphan.id).execute();
}
