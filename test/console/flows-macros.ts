// Macros: created through the dialog (the API's 422 sentence shown on bad input), listed
// with a name filter and paging, a block program edited, Python code pushed with the real
// `svc code push` and its state shown, settings profiles created.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { checkPage } from './harness.js';
import { openFromNav, type World } from './world.js';

const run = promisify(execFile);

async function createMacro(page: Page, name: string, kind: 'Python code' | 'Block program', program?: string): Promise<number> {
  await page.getByRole('button', { name: 'New macro' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.locator('label', { hasText: kind }).first().click();
  if (program !== undefined) await dialog.getByRole('textbox', { name: 'Block program', exact: true }).fill(program);
  await dialog.getByRole('button', { name: 'Create macro' }).click();
  await page.waitForURL(/\/macros\/\d+$/);
  return Number(new URL(page.url()).pathname.split('/').pop());
}

export async function macros(w: World): Promise<void> {
  const { page } = w;
  await openFromNav(page, 'Macros');
  await expect.poll(() => page.getByText('No macros yet').isVisible()).toBe(true);
  // A name of spaces passes the browser but not the API: its sentence is shown as written.
  await page.getByRole('button', { name: 'New macro' }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Name', exact: true }).fill('   ');
  await page.getByRole('dialog').getByRole('button', { name: 'Create macro' }).click();
  await expect.poll(() => page.getByRole('dialog').getByRole('alert').innerText()).toMatch(/Validation failed: body\.name/);
  await page.keyboard.press('Escape');

  w.macros.python = await createMacro(page, 'Checkout flow', 'Python code');
  await openFromNav(page, 'Macros');
  w.macros.block = await createMacro(page, 'Morning routine', 'Block program', '[{"block": "open_app", "package": "com.example.mail"}]');

  // The block program editor: syntax checked as typed, saved through the API.
  await page.getByRole('tab', { name: 'Block program' }).click();
  const editor = page.getByRole('textbox', { name: 'Program', exact: true });
  await expect.poll(() => editor.inputValue()).toContain('com.example.mail');
  await editor.fill('[{"block": "open_app",');
  await expect.poll(() => page.getByText(/Not valid JSON/).isVisible()).toBe(true);
  expect(await page.getByRole('button', { name: 'Save program' }).isDisabled()).toBe(true);
  await editor.fill(JSON.stringify([{ block: 'open_app', package: 'com.example.mail' }, { block: 'wait', seconds: 2 }, { block: 'tap_text', text: 'Inbox' }, { block: 'screenshot' }]));
  await page.getByRole('button', { name: 'Save program' }).click();
  await expect.poll(() => page.getByText('Saved.').isVisible()).toBe(true);
  await checkPage(page, 'macro-block-program');
  const stored = await w.t.db.kysely.selectFrom('macros').select('blocks').where('id', '=', w.macros.block).executeTakeFirstOrThrow();
  expect(JSON.parse(stored.blocks ?? 'null')).toHaveLength(4);

  // Enough macros for a second page, made through the session the page holds.
  await page.evaluate(async () => {
    for (let i = 1; i <= 22; i++) {
      const res = await fetch('/api/macros', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `Batch job ${String(i).padStart(2, '0')}`, kind: 'python', description: 'Nightly data clean-up on the office phones' }) });
      if (res.status !== 201) throw new Error(`macro ${i}: ${res.status}`);
    }
  });
  await openFromNav(page, 'Macros');
  await expect.poll(() => page.getByText('1–20 of 24 macros').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect.poll(() => page.getByText('21–24 of 24 macros').isVisible()).toBe(true);
  await page.getByRole('textbox', { name: 'Filter by name' }).fill('flow');
  await expect.poll(() => page.getByText('1–1 of 1 macros').isVisible()).toBe(true);
  expect(new URL(page.url()).search).toBe('?name=flow');
  // Deleting asks first, and the list knows.
  await page.getByRole('textbox', { name: 'Filter by name' }).fill('Batch job 22');
  await page.getByRole('link', { name: 'Batch job 22' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete macro' }).click();
  await page.waitForURL(/\/macros$/);
  await expect.poll(() => page.getByText('1–20 of 23 macros').isVisible()).toBe(true);
  expect(await w.t.db.kysely.selectFrom('macros').select('id').where('name', '=', 'Batch job 22').execute()).toEqual([]);
  await checkPage(page, 'macros');
}

export async function code(w: World): Promise<void> {
  const { page } = w;
  await page.getByRole('textbox', { name: 'Filter by name' }).fill('checkout');
  await page.getByRole('link', { name: 'Checkout flow' }).click();
  await page.getByRole('tab', { name: 'Code' }).click();
  await expect.poll(() => page.getByText('No code yet').isVisible()).toBe(true);
  // Pushed the way the page says: the real command line, with the key.
  const dir = mkdtempSync(join(tmpdir(), 'console-code-'));
  try {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/app.py'), 'from svc_device import device\n\ndevice.open_app("com.example.shop")\n');
    writeFileSync(join(dir, 'src/steps.py'), 'STEPS = ["cart", "pay"]\n');
    await run(process.execPath, ['dist/main.js', 'code', 'push', dir, '--macro', String(w.macros.python)], {
      env: { ...process.env, BASE_URL: '', DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: '', SVC_BASE_URL: w.base, SVC_API_KEY: w.key },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await page.getByRole('tab', { name: 'Details' }).click();
  await page.getByRole('tab', { name: 'Code' }).click();
  await expect.poll(() => page.getByText('Current code snapshot').isVisible()).toBe(true);
  await expect.poll(() => page.getByText('src/app.py').first().isVisible()).toBe(true);
  await checkPage(page, 'macro-code');
}

export async function profiles(w: World): Promise<void> {
  const { page } = w;
  await page.getByRole('tab', { name: 'Settings profiles' }).click();
  await expect.poll(() => page.getByRole('row', { name: /Default/ }).isVisible()).toBe(true);
  for (const [name, args] of [['Fast', '{"speed": 2, "retries": 1}'], ['Careful', '{"speed": 1, "retries": 5, "__cli_args__": "--slow"}']]) {
    await page.getByRole('button', { name: 'New profile' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('textbox', { name: 'Arguments', exact: true }).fill(args);
    await dialog.getByRole('button', { name: 'Create profile' }).click();
    await expect.poll(() => page.getByRole('row', { name: new RegExp(name) }).isVisible()).toBe(true);
  }
  // The API refuses a second profile of the same name, in its own words.
  await page.getByRole('button', { name: 'New profile' }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Name', exact: true }).fill('Fast');
  await page.getByRole('dialog').getByRole('button', { name: 'Create profile' }).click();
  await expect.poll(() => page.getByRole('dialog').getByRole('alert').innerText()).toMatch(/Fast/);
  await page.keyboard.press('Escape');
  await checkPage(page, 'macro-profiles');
}
