// Macros: created through the dialog (the API's 422 sentence shown on bad input), listed
// with a name filter and paging, a block program edited against the published schema,
// Python code uploaded as a zip from the page and pushed with the real `svc code push`, its
// state shown, settings profiles created.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import yazl from 'yazl';
import { worktreeHash } from '../../src/modules/code-sync/hash.js';
import { checkPage } from './harness.js';
import { openFromNav, type World } from './world.js';

const run = promisify(execFile);

export async function createMacro(page: Page, name: string, kind: 'Python code' | 'Block program', program?: string): Promise<number> {
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
  // Headed by its name; its id (counted across every account) is not shown as if it were a count.
  await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toMatch(/^Checkout flow/);
  await expect.poll(() => page.getByText(/^Created .* · updated /).isVisible()).toBe(true);
  expect(await page.getByText(new RegExp(`Macro ${w.macros.python}\\b`)).count()).toBe(0);
  await openFromNav(page, 'Macros');
  w.macros.block = await createMacro(page, 'Morning routine', 'Block program', '{"version": 1, "steps": [{"type": "open_app", "package": "com.example.mail"}]}');

  // The block program editor: syntax and the published schema checked as typed, saved through the API.
  await page.getByRole('tab', { name: 'Block program' }).click();
  const editor = page.getByRole('textbox', { name: 'Program', exact: true });
  const save = page.getByRole('button', { name: 'Save program' });
  await expect.poll(() => editor.inputValue()).toContain('com.example.mail');
  await editor.fill('{"version": 1, "steps": [{"type": "open_app",');
  await expect.poll(() => page.getByText(/Not valid JSON/).isVisible()).toBe(true);
  expect(await save.isDisabled()).toBe(true);
  // Valid JSON that the schema refuses: the field at fault is named, and nothing is saved.
  await editor.fill('{"version": 1, "steps": [{"type": "open_app", "package": "mail"}, {"type": "fly"}]}');
  await expect.poll(() => page.getByRole('list', { name: 'Problems with the program' }).innerText()).toMatch(/blocks\.steps\.0\.package[\s\S]*blocks\.steps\.1\.type must be one of tap/);
  await expect.poll(() => page.getByText('Fix the 2 problems before saving.').isVisible()).toBe(true);
  expect(await save.isDisabled()).toBe(true);
  const program = { version: 1, steps: [{ type: 'open_app', package: 'com.example.mail' }, { type: 'wait', ms: 2000 }, { type: 'tap', text: 'Inbox' }, { type: 'repeat', times: 3, steps: [{ type: 'key', key: 'BACK' }] }] };
  await editor.fill(JSON.stringify(program));
  await expect.poll(() => page.getByText('Valid program.').isVisible()).toBe(true);
  await save.click();
  await expect.poll(() => page.getByText('Saved.').isVisible()).toBe(true);
  await checkPage(page, 'macro-block-program');
  const stored = await w.t.db.kysely.selectFrom('macros').select('blocks').where('id', '=', w.macros.block).executeTakeFirstOrThrow();
  expect(JSON.parse(stored.blocks ?? 'null')).toEqual(program);

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
  await expect.poll(() => page.getByText('1–1 of 1 macro', { exact: true }).isVisible()).toBe(true);
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
  const consoleErrors: string[] = [];
  const onConsole = (message: { type(): string; text(): string }) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  };
  page.on('console', onConsole);
  await page.getByRole('link', { name: 'Checkout flow' }).click();
  await page.getByRole('tab', { name: 'Code' }).click();
  await expect.poll(() => page.getByText('No code yet').isVisible()).toBe(true);
  await page.waitForLoadState('networkidle');
  page.off('console', onConsole);
  // A macro without code is "No code yet" from the summary route's 200: nothing is logged, not
  // even Chromium's own line for a 4xx.
  expect(consoleErrors).toEqual([]);
  const upload = page.getByRole('button', { name: 'Upload code' });
  const chooser = page.locator('input[type=file]');
  // A file that is not a zip is refused in the page, in words.
  await chooser.setInputFiles({ name: 'notes.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip at all, just text') });
  await upload.click();
  await expect.poll(() => page.getByRole('alert').filter({ hasText: 'not a zip' }).isVisible()).toBe(true);
  // A zip built here (deflated and stored entries, a folder entry): the page computes the
  // worktree hash, the service recomputes it, and the snapshot becomes current.
  const files = { 'src/app.py': 'from svc_device import device\n\ndevice.open_app("com.example.shop")\n', 'src/cart.py': 'ITEMS = ["milk", "bread"]\n'.repeat(40), 'README.md': '# Checkout flow\n' };
  const zip = await zipOf(files);
  await chooser.setInputFiles({ name: 'checkout-flow.zip', mimeType: 'application/zip', buffer: zip });
  await upload.click();
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Uploaded: this is now the current code' }).isVisible()).toBe(true);
  expect(await page.getByRole('status').filter({ hasText: 'Uploaded' }).innerText()).toContain('3 files, ');
  await expect.poll(() => page.getByText('Current code snapshot').isVisible()).toBe(true);
  const hash = worktreeHash(Object.entries(files).map(([path, content]) => ({ path, content })));
  await expect.poll(() => page.getByText(hash).isVisible()).toBe(true);
  await checkPage(page, 'macro-code-upload');
  // The same tree again changes nothing, and says so.
  await chooser.setInputFiles({ name: 'checkout-flow.zip', mimeType: 'application/zip', buffer: zip });
  await upload.click();
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Unchanged' }).isVisible()).toBe(true);
  const snapshots = await w.t.db.kysely.selectFrom('code_snapshots').select('worktree_hash').where('macro_id', '=', w.macros.python).execute();
  expect(snapshots.map((s) => s.worktree_hash)).toEqual([hash]);
  // Pushed the way the page also says: the real command line, with the key.
  const dir = mkdtempSync(join(tmpdir(), 'console-code-'));
  try {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/app.py'), 'from svc_device import device\n\ndevice.open_app("com.example.shop")\n');
    writeFileSync(join(dir, 'src/steps.py'), 'STEPS = ["cart", "pay"]\n');
    await run(process.execPath, ['bin/svc.js', 'code', 'push', dir, '--macro', String(w.macros.python)], {
      env: { ...process.env, BASE_URL: '', DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: '', SVC_BASE_URL: w.base, SVC_API_KEY: w.key },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await page.getByRole('tab', { name: 'Details' }).click();
  await page.getByRole('tab', { name: 'Code' }).click();
  await expect.poll(() => page.getByText('Current code snapshot').isVisible()).toBe(true);
  await expect.poll(() => page.getByText('src/app.py').first().isVisible()).toBe(true);
  await expect.poll(() => page.getByText(hash).isVisible()).toBe(false);
  await checkPage(page, 'macro-code');
}

/** A zip of `files`, the README stored and the rest deflated, with a folder entry as zip tools write. */
async function zipOf(files: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addEmptyDirectory('src/');
  for (const [path, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), path, { compress: !path.endsWith('.md') });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
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
