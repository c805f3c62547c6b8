// Signing up and in, API keys (created, used with fetch from the page, revoked), the plan
// page, keyboard use, signing out, and a lapsed plan (keys stop; the console does not).
import { expect } from 'vitest';
import { checkPage } from './harness.js';
import { ADMIN_TOKEN, measureFirstLoad, openFromNav, type World } from './world.js';

const BUDGET = 300 * 1024;

export async function signedOutFirstLoad(w: World): Promise<void> {
  w.firstLoadJs['/ (signed out)'] = await measureFirstLoad(w.browser, `${w.base}/`);
  expect(w.firstLoadJs['/ (signed out)'].bytes).toBeGreaterThan(10_000);
  expect(w.firstLoadJs['/ (signed out)'].bytes).toBeLessThan(BUDGET);
  expect(w.firstLoadJs['/ (signed out)'].encodings).not.toContain('identity');

  const { page } = w;
  await page.goto(`${w.base}/`);
  await page.waitForURL(/\/signin\?next=%2F$/);
  await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
  // A wrong password: the API's own sentence, not a generic one.
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill('nobody@example.com');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/email or password/i);
  await checkPage(page, 'sign-in');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.waitForURL(/\/signup/);
  await checkPage(page, 'sign-up');
}

export async function signUp(w: World): Promise<void> {
  const { page, user } = w;
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(user.name);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/password/);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${w.base}/`);
  await expect.poll(() => page.getByRole('heading', { name: `Welcome, ${user.name}` }).isVisible()).toBe(true);
  await expect.poll(() => page.getByText('Free trial').isVisible()).toBe(true);
  await expect.poll(() => page.getByText('14 days left in your 14-day trial.').first().isVisible()).toBe(true);
}

export async function apiKeys(w: World): Promise<void> {
  const { page } = w;
  await openFromNav(page, 'Overview');
  await openFromNav(page, 'API keys');
  await expect.poll(() => page.getByText('No API keys yet').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Create key' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('CI script');
  await expect.poll(() => dialog.getByText('None ticked: full access', { exact: false }).isVisible()).toBe(true);
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const secret = dialog.getByTestId('secret-value');
  await expect.poll(() => secret.innerText()).toMatch(/^svc_[0-9a-f]{48}$/);
  w.key = (await secret.innerText()).trim();
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect.poll(() => dialog.getByRole('button', { name: 'Copied' }).isVisible()).toBe(true);
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(w.key);
  await checkPage(page, 'api-key-created');
  await dialog.getByRole('button', { name: 'Done' }).click();
  // The page keeps no key anywhere once the dialog is closed.
  expect(await page.evaluate('JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + document.cookie')).not.toContain('svc_');

  // The key works from the page, against the key route that tells who it belongs to.
  const whoami = (await page.evaluate(async (key) => {
    const res = await fetch('/api/whoami', { headers: { 'X-API-KEY': key } });
    return { status: res.status, body: (await res.json()) as { user: { email: string }; api_key: { name: string; scopes: string[] } } };
  }, w.key));
  expect(whoami).toEqual({ status: 200, body: { user: expect.objectContaining({ email: w.user.email }), api_key: expect.objectContaining({ name: 'CI script', scopes: [] }) } });

  // The AI-client preset: never expires, three scopes ticked.
  await page.getByRole('button', { name: 'AI client key' }).click();
  await expect.poll(() => dialog.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('AI client');
  for (const label of ['Control devices', 'Run macros', 'Read maps']) expect(await dialog.getByRole('checkbox', { name: new RegExp(label) }).isChecked()).toBe(true);
  for (const label of ['Author macros', 'Read runs']) expect(await dialog.getByRole('checkbox', { name: new RegExp(label) }).isChecked()).toBe(false);
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect.poll(() => dialog.getByTestId('secret-value').isVisible()).toBe(true);
  await dialog.getByRole('button', { name: 'Done' }).click();
  const aiRow = page.getByRole('row', { name: /AI client/ });
  await expect.poll(() => aiRow.innerText()).toMatch(/devices:control[\s\S]*macros:run[\s\S]*maps:read[\s\S]*Active[\s\S]*Never/);

  // Revoking asks first, then the row says so.
  await aiRow.getByRole('button', { name: 'Revoke AI client' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect.poll(() => aiRow.innerText()).toMatch(/Revoked/);
  await expect.poll(() => page.getByRole('row', { name: /CI script/ }).innerText()).toMatch(/Full access[\s\S]*Active/);
  await checkPage(page, 'api-keys');
}

export async function keyboard(w: World): Promise<void> {
  const { page } = w;
  await page.goto(`${w.base}/keys`);
  await expect.poll(() => page.getByText('No API keys yet').isVisible()).toBe(true);
  // The first Tab stop is the skip link, and it moves focus to the page.
  await page.keyboard.press('Tab');
  expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to the page');
  await page.keyboard.press('Enter');
  expect(await page.evaluate('document.activeElement.id')).toBe('main');
  // A dialog opens from the keyboard, holds the focus, and Escape closes it.
  await page.getByRole('button', { name: 'Create key' }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate('!!document.activeElement.closest("[role=dialog]")')).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  // The focus goes back to the button once the closing transition has run (a frame or more later).
  await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('Create key');
  await page.goto(`${w.base}/no-such-page`);
  await expect.poll(() => page.getByRole('heading', { name: 'This page does not exist' }).isVisible()).toBe(true);
  await checkPage(page, 'not-found');
}

export async function account(w: World): Promise<void> {
  const { page } = w;
  await openFromNav(page, 'Overview');
  await expect.poll(() => page.getByRole('main').getByRole('link', { name: /^Macros/ }).innerText()).toMatch(/^Macros\s+23\b/);
  await checkPage(page, 'overview');
  await openFromNav(page, 'Plan and account');
  await expect.poll(() => page.getByText(w.user.email).first().isVisible()).toBe(true);
  await expect.poll(() => page.getByText('trialing').isVisible()).toBe(true);
  await checkPage(page, 'account');
}

export async function signOutAndIn(w: World): Promise<void> {
  const { page } = w;
  await page.getByRole('button', { name: /account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL(/\/signin/);
  // The session is gone on the server, not only in the page.
  expect(await page.evaluate(async () => (await fetch('/api/auth/me')).status)).toBe(401);
  expect(await page.evaluate(async () => (await fetch('/api/emulator/devices')).status)).toBe(401);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(w.user.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(w.user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${w.base}/`);
  w.firstLoadJs['/ (signed in)'] = await measureFirstLoad(w.browser, `${w.base}/`, await w.context.cookies());
  expect(w.firstLoadJs['/ (signed in)'].bytes).toBeLessThan(BUDGET);
  // A fresh sign-in lists the devices at once: the session is all the console needs.
  await openFromNav(page, 'Devices');
  await expect.poll(() => page.getByRole('row', { name: /Pixel 7/ }).isVisible()).toBe(true);
}

/** A lapsed plan stops the person's keys (402), not the console: every page still reads. */
export async function lapsedPlan(w: World): Promise<void> {
  const { page } = w;
  const { id } = await w.t.db.kysely.selectFrom('users').select('id').where('email', '=', w.user.email).executeTakeFirstOrThrow();
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const lapsed = await w.t.app.inject({ method: 'PUT', url: `/admin/users/${id}/subscription`, headers: admin, payload: { status: 'inactive' } });
  expect(lapsed.statusCode).toBe(200);
  await page.goto(`${w.base}/devices`);
  await expect.poll(() => page.getByRole('link', { name: /Plan inactive: keys stopped/ }).isVisible()).toBe(true);
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'No active plan' }).innerText()).toMatch(/402 subscription_required[\s\S]*This console keeps working/);
  await expect.poll(() => page.getByRole('row', { name: /Pixel 7/ }).isVisible()).toBe(true);
  await checkPage(page, 'plan-lapsed');
  // The person's key answers 402 on a key route; the console's own reads do not.
  const byKey = await page.evaluate(async (key) => {
    const res = await fetch('/api/emulator/devices', { headers: { 'X-API-KEY': key }, credentials: 'omit' });
    return { status: res.status, code: ((await res.json()) as { details?: { code?: string } }).details?.code };
  }, w.key);
  expect(byKey).toEqual({ status: 402, code: 'subscription_required' });
  for (const [label, shows] of [['Groups', /Office phones/], ['Run history', /completed|failed|stopped|running/], ['Webhooks', /Order system/], ['Proxies', /127\.0\.0\.1/]] as const) {
    await openFromNav(page, label);
    await expect.poll(() => page.getByRole('main').locator('table').first().innerText(), { message: label }).toMatch(shows);
  }
  await openFromNav(page, 'Plan and account');
  await expect.poll(() => page.getByText('Inactive', { exact: true }).first().isVisible()).toBe(true);
  await checkPage(page, 'account-plan-lapsed');
  // The console never sent a key of its own: the only request that carried one is the test's whoami call.
  expect(w.keyRequests).toEqual(['/api/whoami', '/api/emulator/devices']);
  const keyNames = await w.t.db.kysely.selectFrom('api_keys').select('name').orderBy('id').execute();
  expect(keyNames.map((k) => k.name)).toEqual(['CI script', 'AI client']);
}
