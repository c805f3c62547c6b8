// What the end-to-end flows share: the real app listening on 127.0.0.1, the browser page,
// a webhook receiver with its delivery worker, and what earlier flows created.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ManualClock } from '../../src/lib/clock.js';
import type { WebhookWorkerHandle } from '../../src/modules/webhooks/runner.js';
import type { TestApp } from '../helpers/app.js';
import type { Receiver, TestCa } from '../helpers/webhooks.js';
import type { ScriptedModel } from '../modules/authoring/helpers/scripted-model.js';

/** The browser shows times relative to its own clock, so the app runs on real time. */
export class WallClock extends ManualClock {
  override now(): number {
    return Date.now();
  }
}

export interface World {
  t: TestApp;
  base: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  ca: TestCa;
  receiver: Receiver;
  worker: WebhookWorkerHandle;
  user: { name: string; email: string; password: string };
  /** The full-access key created in the keys flow (used with fetch and by `svc code push`). */
  key: string;
  /** Paths of the page's requests that carried an X-API-KEY header. */
  keyRequests: string[];
  macros: { python: number; block: number };
  /** The chat-completions server AUTHOR_LLM_URL names, replaying what the authoring flow pushes. */
  model: ScriptedModel;
  /** The device lifecycle and cloud run workers, started by the cloud flow. */
  cloudWorkers?: { start(): void; stop(): Promise<void> }[];
  /** Compressed JavaScript bytes of first loads, for the report. */
  firstLoadJs: Record<string, { bytes: number; files: number; encodings: string[] }>;
}

/** The admin token the app is started with, to change the person's plan as an operator would. */
export const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';

/** Navigates inside the console the way a person does: a click on the navigation. */
export async function openFromNav(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
}

/**
 * Loads `url` in a new browser context (an empty cache, and the given cookies) and sums the
 * JavaScript bytes that crossed the wire, as compressed by the server.
 */
export async function measureFirstLoad(browser: Browser, url: string, cookies: Parameters<BrowserContext['addCookies']>[0] = []): Promise<{ bytes: number; files: number; encodings: string[] }> {
  const context = await browser.newContext();
  await context.addCookies(cookies);
  const page = await context.newPage();
  const scripts: Promise<{ bytes: number; encoding: string }>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(response.request().sizes().then(async (sizes) => ({ bytes: sizes.responseBodySize, encoding: (await response.headerValue('content-encoding')) ?? 'identity' })));
  });
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  // The console rendered under its own Content-Security-Policy, and nothing was refused.
  if ((await page.locator('h1').count()) === 0) throw new Error(`the console did not render at ${url}`);
  if (blocked.length) throw new Error(`the console broke its CSP: ${blocked.join('; ')}`);
  const loaded = await Promise.all(scripts);
  await context.close();
  return { bytes: loaded.reduce((sum, s) => sum + s.bytes, 0), files: loaded.length, encodings: [...new Set(loaded.map((s) => s.encoding))] };
}
