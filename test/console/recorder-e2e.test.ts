// The recorder in the console end to end (issue 33), on its own so it runs without the whole
// console suite: Debian's Chromium against the real app on 127.0.0.1, a new person signed up,
// then flows-recorder.ts on a sim cloud device. Skipped, saying why, on PostgreSQL or without
// Chromium, like console-e2e.test.ts.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test, vi } from 'vitest';
import { listeningTestApp } from '../helpers/listening-app.js';
import { signUp } from './flows-account.js';
import { recorder } from './flows-recorder.js';
import { buildConsoleIfStale, launchChromium, skipReason, VIEWPORT } from './harness.js';
import { WallClock, type World } from './world.js';

vi.setConfig({ expect: { requireAssertions: true, poll: { timeout: 15_000, interval: 100 } } });

const skip = skipReason();
/** What the browser's console said in error or warning, for the report. */
const consoleErrors: string[] = [];
const w = { user: { name: 'Grace', email: `grace-${Date.now()}@example.com`, password: 'correct horse battery staple' }, macros: { python: 0, block: 0 }, firstLoadJs: {}, keyRequests: [] as string[] } as World;

describe.skipIf(skip !== null)(skip ? `the recorder in the console (skipped: ${skip})` : 'the recorder in the console', () => {
  beforeAll(async () => {
    buildConsoleIfStale();
    // A code macro's run reaches its device through BASE_URL: the address the app listens on.
    ({ t: w.t, baseUrl: w.base } = await listeningTestApp({ clock: new WallClock() }));
    w.browser = await launchChromium();
    // axe-core is injected as a script, which the console's CSP would refuse.
    w.context = await w.browser.newContext({ viewport: VIEWPORT, bypassCSP: true, reducedMotion: 'reduce' });
    w.page = await w.context.newPage();
    w.page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') consoleErrors.push(`${message.type()}: ${message.text()} (${message.location().url})`);
    });
  }, 120_000);

  afterAll(async () => {
    await w.browser?.close();
    await Promise.all((w.cloudWorkers ?? []).map((worker) => worker.stop()));
    await w.t?.close();
    if (consoleErrors.length) process.stderr.write(`recorder e2e, the browser console:\n${consoleErrors.join('\n')}\n`);
  });

  test('a new person signs up', async () => {
    await w.page.goto(`${w.base}/signup`);
    await signUp(w);
  }, 60_000);

  test('records on a cloud device, edits the steps, saves as block and code, replays into the trace', async () => {
    try {
      await recorder(w);
    } catch (error) {
      await w.page.screenshot({ path: join(tmpdir(), 'recorder-e2e-failure.png') }).catch(() => undefined);
      process.stderr.write(`recorder e2e failed on ${w.page.url()}; screenshot: ${join(tmpdir(), 'recorder-e2e-failure.png')}\n`);
      throw error;
    }
  }, 240_000);
});
