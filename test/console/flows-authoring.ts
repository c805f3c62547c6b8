// The authoring agent from the console, against a scripted chat-completions server (the
// authoring tests' own): a session started from a goal and a cloud device, followed as a
// conversation (tool calls folded, the screen shown small), its question answered, its files
// installed into a macro through the code upload; a second session stopped while the model
// is slow; the AI credits spent; and a server without a model saying so and how to configure it.
import { expect } from 'vitest';
import { createTestApp } from '../helpers/app.js';
import { checkPage, VIEWPORT } from './harness.js';
import { openFromNav, WallClock, type World } from './world.js';

const MAIN = `import svc_device as d
d.open_app("com.example.shop")
d.tap_element("row_beans")
d.tap_text("Add to cart")
d.log("beans in the cart")
`;

export async function authoring(w: World): Promise<void> {
  const { page, model } = w;
  const made = await page.evaluate(async () => (await fetch('/api/hosted/devices', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Agent phone' }) })).status);
  expect(made).toBe(201);
  await openFromNav(page, 'Authoring agent');
  await expect.poll(() => page.getByText('No sessions yet').isVisible()).toBe(true);
  await expect.poll(() => page.getByText('1,000 of 1,000 left').isVisible()).toBe(true);

  // The replies come slowly enough for the page to read the screenshot step while the session works.
  model.push(
    { text: 'Let me open the shop and look.', calls: [{ name: 'app_open', args: { package: 'com.example.shop' } }], tokens: 1500, delayMs: 1500 },
    { calls: [{ name: 'device_screenshot' }], tokens: 1200, delayMs: 1200 },
    { calls: [{ name: 'device_ui_tree' }], tokens: 1100, delayMs: 1200 },
    { calls: [{ name: 'file_write', args: { path: 'main.py', content: MAIN } }], tokens: 900 },
    { text: 'The script is written.', calls: [{ name: 'ask_user', args: { question: 'Should the macro also check out, or stop with the beans in the cart?' } }], tokens: 800 },
  );
  await page.getByRole('button', { name: 'New session' }).click();
  const dialog = page.getByRole('dialog', { name: 'Start an authoring session' });
  await dialog.getByRole('textbox', { name: 'Goal' }).fill('Add the espresso beans to the cart');
  await dialog.getByRole('combobox', { name: 'Cloud device', exact: true }).click();
  await page.getByRole('option', { name: 'Agent phone' }).click();
  await dialog.getByRole('button', { name: 'Start session' }).click();
  await page.waitForURL(/\/authoring\/\d+$/);
  const sessionId = Number(new URL(page.url()).pathname.split('/').pop());

  const log = page.getByRole('log', { name: 'Conversation with the agent' });
  const question = page.getByRole('region', { name: "The agent's question" });
  await expect.poll(() => question.isVisible(), { timeout: 30_000 }).toBe(true);
  // The question once, where it is answered; not also as the conversation's last bubble.
  const asked = 'Should the macro also check out, or stop with the beans in the cart?';
  await expect.poll(() => question.getByText(asked).isVisible()).toBe(true);
  expect(await page.getByText(asked, { exact: true }).count()).toBe(1);
  // The session's macro and device by their names, not "macro #1" and "cloud device #8".
  const sessionMacro = (await page.evaluate(async (id) => (await fetch(`/api/authoring/sessions/${id}`)).json(), sessionId)) as { macro_id: number };
  const macroName = ((await page.evaluate(async (id) => (await fetch(`/api/macros/${id}`)).json(), sessionMacro.macro_id)) as { name: string }).name;
  const details = page.getByRole('definition');
  await expect.poll(() => details.getByRole('link', { name: macroName, exact: true }).isVisible()).toBe(true);
  await expect.poll(() => details.getByText('Agent phone', { exact: true }).isVisible()).toBe(true);
  expect(await page.getByText(/macro #\d|cloud device #\d/).count()).toBe(0);
  await expect.poll(() => log.getByText('Let me open the shop and look.').isVisible()).toBe(true);
  // The four tool calls are one folded line; the screen the console took is shown small.
  const fold = log.locator('summary', { hasText: '4 tool calls: app_open, device_screenshot, device_ui_tree, file_write' });
  await expect.poll(() => fold.isVisible()).toBe(true);
  await expect.poll(() => log.getByText('app_open: opened com.example.shop').isVisible()).toBe(false);
  const shot = log.getByRole('img', { name: /The device's screen when the console read step \d+/ });
  await expect.poll(() => shot.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth > 0)).toBe(true);
  expect((await shot.boundingBox())!.height).toBeLessThanOrEqual(160);
  await fold.click();
  await expect.poll(() => log.getByText('app_open: opened com.example.shop').isVisible()).toBe(true);
  await expect.poll(() => page.getByText('waiting for answer').first().isVisible()).toBe(true);
  await checkPage(page, 'authoring-session');

  model.push({ calls: [{ name: 'finish', args: { summary: 'The macro opens the shop and adds the espresso beans to the cart.' } }], tokens: 700 });
  await question.getByRole('textbox', { name: 'Your answer' }).fill('Stop with the beans in the cart.');
  await question.getByRole('button', { name: 'Send answer' }).click();
  await expect.poll(() => log.getByText('Stop with the beans in the cart.').isVisible()).toBe(true);
  await expect.poll(() => log.getByText('The macro opens the shop and adds the espresso beans to the cart.').isVisible(), { timeout: 30_000 }).toBe(true);
  await expect.poll(() => question.count()).toBe(0);
  // 1500 + 1200 + 1100 + 900 + 800 + 700 = 6200 tokens: 7 credits.
  await expect.poll(() => page.getByRole('definition').filter({ hasText: /^7$/ }).count()).toBe(1);

  // Done: the files, installed into the session's macro with the code upload.
  await page.getByText('main.py', { exact: true }).click();
  await expect.poll(() => page.getByText('d.tap_element("row_beans")', { exact: false }).isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Install into macro' }).click();
  const installed = page.getByRole('status').filter({ hasText: /Installed: this is now the macro.s current code/ });
  await expect.poll(() => installed.innerText()).toMatch(/1 file.*entry file main\.py/s);
  const session = (await page.evaluate(async (id) => (await fetch(`/api/authoring/sessions/${id}`)).json(), sessionId)) as { macro_id: number };
  expect(session).toMatchObject({ state: 'done', credits_used: 7, files: [{ path: 'main.py', content: MAIN }] });
  const state = (await page.evaluate(async (id) => (await fetch(`/api/macros/${id}/code-state`)).json(), session.macro_id)) as { entry_path: string };
  expect(state.entry_path).toBe('main.py');
  await checkPage(page, 'authoring-done');

  // A second session, without a device, stopped while the model takes its time.
  await openFromNav(page, 'Authoring agent');
  model.push({ delayMs: 20_000, calls: [{ name: 'finish', args: { summary: 'too late' } }] });
  await page.getByRole('button', { name: 'New session' }).click();
  await dialog.getByRole('textbox', { name: 'Goal' }).fill('Open the settings and change the language to German');
  await dialog.getByRole('button', { name: 'Start session' }).click();
  await page.waitForURL(/\/authoring\/\d+$/);
  await expect.poll(() => page.getByText('working', { exact: true }).isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Stop session' }).click();
  await expect.poll(() => page.getByText('Stopped at your request.').isVisible()).toBe(true);
  await expect.poll(() => page.getByRole('button', { name: 'Stop session' }).count()).toBe(0);

  // The list: both sessions with their states and credits; the month's credits spent.
  await openFromNav(page, 'Authoring agent');
  await expect.poll(() => page.getByRole('row', { name: /Add the espresso beans to the cart\s+done\s+7/ }).isVisible()).toBe(true);
  await expect.poll(() => page.getByRole('row', { name: /Add the espresso beans to the cart/ }).getByRole('cell').nth(3).getByRole('link', { name: macroName, exact: true }).isVisible()).toBe(true);
  expect(await page.getByText(/macro #\d/).count()).toBe(0);
  await expect.poll(() => page.getByRole('row', { name: /change the language to German\s+stopped\s+0/ }).isVisible()).toBe(true);
  await expect.poll(() => page.getByText('993 of 1,000 left').isVisible()).toBe(true);
  await checkPage(page, 'authoring');
}

/** A server without AUTHOR_LLM_URL: the page says the agent is not configured and how, and offers no start. */
export async function authoringNotConfigured(w: World): Promise<void> {
  const bare = await createTestApp({ clock: new WallClock() });
  try {
    const base = await bare.app.listen({ port: 0, host: '127.0.0.1' });
    const context = await w.browser.newContext({ viewport: VIEWPORT, bypassCSP: true, reducedMotion: 'reduce' });
    try {
      const page = await context.newPage();
      await page.goto(`${base}/signin`);
      const status = await page.evaluate(async () => (await fetch('/api/auth/signup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `bare-${Date.now()}@example.com`, password: 'correct horse battery staple' }) })).status);
      expect(status).toBe(201);
      await page.goto(`${base}/authoring`);
      await expect.poll(() => page.getByText('Authoring is not configured on this server').isVisible()).toBe(true);
      await expect.poll(() => page.getByText(/AUTHOR_LLM_URL to an OpenAI-compatible chat-completions endpoint/).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'New session' }).isDisabled()).toBe(true);
      // No credits card: there is no agent to spend them.
      expect(await page.getByText('AI credits this month').count()).toBe(0);
      await checkPage(page, 'authoring-not-configured');
    } finally {
      await context.close();
    }
  } finally {
    await bare.close();
  }
}
