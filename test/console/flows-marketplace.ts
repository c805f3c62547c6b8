// The marketplace: another person publishes block macros (one with two versions); this person
// browses with paging, searches, orders by rating, opens a listing with its trust figures and
// versions, installs version 1, writes and then changes a review, moves the installed copy to
// version 2 from its macro page (and is refused in words once the operator hid the listing),
// and on "My listings" sees a publication refused for a secret (file and line named, the
// secret never shown), publishes a macro, sees its own listing without an Install button, is
// told a new version with nothing changed is refused, and hides the listing. The listing's
// "Marketplace" link in its header is underlined (not told apart by colour alone).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { snapshotBody } from '../helpers/zip.js';
import { checkPage } from './harness.js';
import { ADMIN_TOKEN, openFromNav, type World } from './world.js';

const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';

/** A second person, signed up and publishing through the routes. */
async function otherAuthor(w: World) {
  const signup = await w.t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { name: 'Grace', email: `grace-${Date.now()}@example.com`, password: 'correct horse battery' } });
  expect(signup.statusCode, signup.body).toBe(201);
  const headers = { authorization: `Bearer ${signup.json().session.token}` };
  const call = async (method: 'POST' | 'PUT', url: string, payload: object, status = 201) => {
    const res = await w.t.app.inject({ method, url, headers, payload });
    expect(res.statusCode, res.body).toBe(status);
    return res.json() as { id: number };
  };
  const publish = async (title: string, summary: string, tags: string[], message: string) => {
    const macro = await call('POST', '/api/macros', { name: title, kind: 'block', blocks: { version: 1, steps: [{ type: 'open_app', package: 'com.example.mail' }, { type: 'log', message }] } });
    const listing = await call('POST', '/api/marketplace/listings', { macro_id: macro.id, title, summary, tags });
    return { macro: macro.id, listing: listing.id };
  };
  return { call, publish };
}

async function install(page: Page) {
  await page.getByRole('combobox', { name: 'Version' }).click();
  await page.getByRole('option', { name: 'Version 1', exact: true }).click();
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Version 1 is now your macro' }).isVisible()).toBe(true);
}

export async function marketplace(w: World): Promise<void> {
  const { page } = w;
  const grace = await otherAuthor(w);
  const inbox = await grace.publish('Inbox zero', 'Archives every read message in the mail app, oldest first.', ['mail', 'cleanup'], 'archived');
  await grace.call('PUT', `/api/macros/${inbox.macro}`, { blocks: { version: 1, steps: [{ type: 'open_app', package: 'com.example.mail' }, { type: 'log', message: 'archived, v2' }] } }, 200);
  await grace.call('POST', `/api/marketplace/listings/${inbox.listing}/versions`, { notes: 'Logs which version ran.' });
  for (let i = 1; i <= 21; i++) await grace.publish(`Daily check-in ${String(i).padStart(2, '0')}`, 'Opens the app and taps the check-in button once a day.', ['daily'], `check-in ${i}`);

  // Browsing: the first page of 22 listings, the second, a search, and an order.
  await openFromNav(page, 'Marketplace');
  await expect.poll(() => page.getByText('1–20 of 22 listings').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect.poll(() => page.getByText('21–22 of 22 listings').isVisible()).toBe(true);
  await page.getByRole('textbox', { name: 'Search listings' }).fill('ARCHIV mail');
  await expect.poll(() => page.getByText('1–1 of 1 listing', { exact: true }).isVisible()).toBe(true);
  expect(new URL(page.url()).searchParams.get('q')).toBe('ARCHIV mail');
  await page.getByRole('textbox', { name: 'Search listings' }).fill('');
  await page.getByRole('combobox', { name: 'Order' }).click();
  await page.getByRole('option', { name: 'Newest' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('new');
  await expect.poll(() => page.getByRole('row').nth(1).innerText()).toMatch(/Daily check-in 21/);
  await checkPage(page, 'marketplace');

  // One listing: trust figures, both versions, installing version 1.
  await page.getByRole('textbox', { name: 'Search listings' }).fill('inbox');
  await page.getByRole('link', { name: 'Inbox zero' }).click();
  await page.waitForURL(/\/marketplace\/\d+$/);
  // The way back sits in a line of text ("Marketplace · by Grace"): underlined, not only coloured.
  const back = page.getByRole('main').getByRole('link', { name: 'Marketplace', exact: true });
  await expect.poll(() => back.evaluate((a) => (globalThis as unknown as { getComputedStyle(e: unknown): { textDecorationLine: string } }).getComputedStyle(a).textDecorationLine)).toBe('underline');
  const trust = page.getByRole('group', { name: 'Trust signals' });
  await expect.poll(() => trust.innerText()).toMatch(/Installs\s*0[\s\S]*no reviews yet[\s\S]*Runs, last 30 days\s*0/);
  await expect.poll(() => page.getByRole('table', { name: 'Versions' }).getByRole('row').count()).toBe(3);
  expect(await page.getByRole('table', { name: 'Versions' }).innerText()).toContain('Logs which version ran.');
  await install(page);
  const copies = await w.t.db.kysely.selectFrom('macros').select(['installed_listing_id', 'installed_version', 'blocks']).where('installed_listing_id', '=', inbox.listing).execute();
  expect(copies).toHaveLength(1);
  expect(copies[0].installed_version).toBe(1);
  expect(copies[0].blocks).toContain('"archived"');

  // A review, then the same review changed: one review, the average follows.
  await page.locator('label', { hasText: '4 ★' }).click();
  await page.getByRole('textbox', { name: 'Review' }).fill('Works on my Pixel; slow on long inboxes.');
  await page.getByRole('button', { name: 'Post review' }).click();
  await expect.poll(() => trust.innerText()).toMatch(/4\.0 \/ 5[\s\S]*from 1 review/);
  await expect.poll(() => page.getByRole('button', { name: 'Update review' }).isVisible()).toBe(true);
  await page.locator('label', { hasText: '5 ★' }).click();
  await page.getByRole('button', { name: 'Update review' }).click();
  await expect.poll(() => trust.innerText()).toMatch(/5\.0 \/ 5[\s\S]*from 1 review/);
  await expect.poll(() => trust.innerText()).toMatch(/Installs\s*1/);
  await expect.poll(() => page.getByRole('article', { name: 'Review by Ada' }).innerText()).toContain('Works on my Pixel');
  // The picture shows the top of the page: its figures, install button and versions.
  await page.evaluate('window.scrollTo(0, 0)');
  await checkPage(page, 'marketplace-listing');

  // The copy stays on version 1 until its owner moves it: its macro page names the listing
  // and version, moves it to version 2, and refuses in the service's words once the
  // operator has hidden the listing.
  await page.getByRole('status').filter({ hasText: 'Version 1 is now your macro' }).getByRole('link').click();
  await page.waitForURL(/\/macros\/\d+$/);
  const copy = page.getByRole('region', { name: 'Installed from the marketplace' });
  await expect.poll(() => copy.innerText()).toMatch(/From Inbox zero, version 1; the latest is version 2\./);
  await copy.getByRole('button', { name: 'Move to version 2' }).click();
  await expect.poll(() => copy.getByRole('status').innerText().catch(() => '')).toContain('This macro now runs version 2');
  await expect.poll(() => copy.innerText()).toMatch(/version 2 \(the latest\)\./);
  const copyAfterMove = () => w.t.db.kysely.selectFrom('macros').select(['installed_version', 'blocks']).where('installed_listing_id', '=', inbox.listing).executeTakeFirstOrThrow();
  expect(await copyAfterMove()).toMatchObject({ installed_version: 2, blocks: expect.stringContaining('"archived, v2"') });
  await page.getByRole('tab', { name: 'Block program' }).click();
  await expect.poll(() => page.getByRole('textbox', { name: 'Program' }).inputValue()).toContain('archived, v2');
  await checkPage(page, 'macro-installed-copy');
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const hidden = await w.t.app.inject({ method: 'PUT', url: `/admin/marketplace/listings/${inbox.listing}/hidden`, headers: admin, payload: { hidden: true, reason: 'reported' } });
  expect(hidden.statusCode, hidden.body).toBe(200);
  await copy.getByRole('combobox', { name: 'Move to version' }).click();
  await page.getByRole('option', { name: 'Version 1', exact: true }).click();
  await copy.getByRole('button', { name: 'Move to version 1' }).click();
  await expect.poll(() => copy.getByRole('alert').innerText().catch(() => '')).toMatch(/Not moved[\s\S]*No marketplace listing with this id/);
  expect(await copyAfterMove()).toMatchObject({ installed_version: 2 });
  const shown = await w.t.app.inject({ method: 'PUT', url: `/admin/marketplace/listings/${inbox.listing}/hidden`, headers: admin, payload: { hidden: false } });
  expect(shown.statusCode, shown.body).toBe(200);

  // My listings: a Python macro holding an AWS key is refused, naming file and line only.
  const secretMacro = await page.request.post(`${w.base}/api/macros`, { data: { name: 'Upload receipts', kind: 'python' } });
  expect(secretMacro.status(), await secretMacro.text()).toBe(201);
  const files = [{ name: 'src/app.py', data: 'from svc_device import device\n\ndevice.open_app("com.example.receipts")\n' }, { name: 'src/config.py', data: `REGION = "eu-west-1"\n\nKEY_ID = "${AWS_KEY}"\n` }];
  const synced = await w.t.app.inject({ method: 'POST', url: `/api/macros/${((await secretMacro.json()) as { id: number }).id}/code-snapshot`, headers: { 'x-api-key': w.key }, payload: snapshotBody(files) });
  expect(synced.statusCode, synced.body).toBe(201);
  await openFromNav(page, 'Marketplace');
  await page.getByRole('link', { name: 'My listings' }).click();
  await expect.poll(() => page.getByText('You have not published anything').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Publish a macro' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Macro' }).click();
  await page.getByRole('option', { name: 'Upload receipts (Python)' }).click();
  await dialog.getByRole('textbox', { name: 'Summary' }).fill('Photographs each receipt and uploads it.');
  await dialog.getByRole('button', { name: 'Publish' }).click();
  const findings = dialog.getByRole('list', { name: 'Secrets found' });
  await expect.poll(() => findings.innerText()).toBe('src/config.py line 3: an AWS access key id');
  expect(await dialog.innerText()).not.toContain(AWS_KEY);
  await checkPage(page, 'marketplace-secret-refused');

  // The block macro publishes; a new version without changes is refused in words; hidden.
  await dialog.getByRole('combobox', { name: 'Macro' }).click();
  await page.getByRole('option', { name: 'Morning routine (block)' }).click();
  await dialog.getByRole('textbox', { name: 'Title' }).fill('Morning routine');
  await dialog.getByRole('textbox', { name: 'Summary' }).fill('Opens the mail app, waits, taps Inbox and goes back three times.');
  await dialog.getByRole('textbox', { name: 'Tags' }).fill('mail, Morning');
  await dialog.getByRole('button', { name: 'Publish' }).click();
  const row = page.getByRole('row', { name: /Morning routine/ });
  await expect.poll(() => row.innerText()).toMatch(/Block · version 1 · Opens the mail app[\s\S]*\s0\s*No reviews\s*Listed/);
  // Its own listing, as its author sees it: nothing to install.
  await row.getByRole('link', { name: 'Morning routine' }).click();
  await page.waitForURL(/\/marketplace\/\d+$/);
  await expect.poll(() => page.getByText('This is your listing: it was published from one of your macros').isVisible()).toBe(true);
  expect(await page.getByRole('button', { name: 'Install', exact: true }).count()).toBe(0);
  await checkPage(page, 'marketplace-own-listing');
  await page.getByRole('link', { name: 'My listings', exact: true }).first().click();
  await page.waitForURL(/\/marketplace\/mine$/);
  await row.getByRole('button', { name: 'New version of Morning routine' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Publish version' }).click();
  await expect.poll(() => page.getByRole('dialog').getByRole('alert').innerText()).toMatch(/No new version[\s\S]*the same as in the latest version/);
  await page.keyboard.press('Escape');
  await row.getByRole('button', { name: 'Hide Morning routine' }).click();
  await expect.poll(() => row.innerText()).toMatch(/Hidden by you/);
  await checkPage(page, 'marketplace-mine');
  const stored = await w.t.db.kysely.selectFrom('marketplace_listings').select(['title', 'visible']).where('title', '=', 'Morning routine').executeTakeFirstOrThrow();
  expect(Boolean(stored.visible)).toBe(false);
}
