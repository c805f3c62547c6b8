// The web console end to end, in Debian's Chromium against the real app on 127.0.0.1: a new
// person signs up, creates keys and uses one from the page, creates macros, uploads code as
// a zip and pushes it, makes profiles, groups and devices, reports and tails a run, receives
// webhooks, imports proxies and reads their usage, starts a cloud device, taps its live view,
// installs an APK, runs a block macro on it and stops the run from the run history, explores an app
// into a menu map, keeps images in its library (uploaded, and cropped from a device screen), has
// the authoring agent (a scripted model) write a macro, makes and edits a schedule, signs out
// and in, and keeps using the console after the plan lapses. Every page passes axe-core and is photographed for the README.
// Runs on the SQLite pass; skipped, saying why, on PostgreSQL or without Chromium.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test, vi } from 'vitest';
import { createTestApp } from '../helpers/app.js';
import { makeTestCa, startReceiver, testWorker } from '../helpers/webhooks.js';
import { account, apiKeys, keyboard, lapsedPlan, signedOutFirstLoad, signOutAndIn, signUp } from './flows-account.js';
import { cloudDevice } from './flows-cloud.js';
import { groupsAndDevices, runs } from './flows-devices.js';
import { imageLibrary } from './flows-images.js';
import { marketplace } from './flows-marketplace.js';
import { menuMaps } from './flows-maps.js';
import { authoring, authoringNotConfigured } from './flows-authoring.js';
import { startScriptedModel } from '../modules/authoring/helpers/scripted-model.js';
import { proxies, webhooks } from './flows-integrations.js';
import { schedules } from './flows-schedules.js';
import { code, macros, profiles } from './flows-macros.js';
import { buildConsoleIfStale, launchChromium, skipReason, VIEWPORT } from './harness.js';
import { ADMIN_TOKEN, WallClock, type World } from './world.js';

// A page waits on the API and loads its chunk on first visit: give each poll 15 s.
vi.setConfig({ expect: { requireAssertions: true, poll: { timeout: 15_000, interval: 100 } } });

const skip = skipReason();
// Said once, where a person running `npm test` sees it.
if (skip !== null) process.stderr.write(`\nweb console end to end: skipped because ${skip}\n\n`);
const w = { user: { name: 'Ada', email: `ada-${Date.now()}@example.com`, password: 'correct horse battery staple' }, macros: { python: 0, block: 0 }, firstLoadJs: {}, keyRequests: [] as string[] } as World;

describe.skipIf(skip !== null)(skip ? `web console end to end (skipped: ${skip})` : 'web console end to end', () => {
  beforeAll(async () => {
    buildConsoleIfStale();
    w.model = await startScriptedModel();
    w.t = await createTestApp({ clock: new WallClock(), env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', PROXY_CHECK_TIMEOUT_MS: '3000', ADMIN_TOKEN, AUTHOR_LLM_URL: w.model.url, AUTHOR_LLM_MODEL: 'scripted' } });
    w.base = await w.t.app.listen({ port: 0, host: '127.0.0.1' });
    w.ca = makeTestCa();
    w.receiver = await startReceiver(w.ca);
    w.worker = testWorker(w.t, w.ca);
    w.worker.worker.start();
    w.browser = await launchChromium();
    // axe-core is injected as a script, which the console's own CSP (script-src 'self') would
    // refuse; the first-load measurements run in plain contexts, under that CSP.
    w.context = await w.browser.newContext({ viewport: VIEWPORT, permissions: ['clipboard-read', 'clipboard-write'], bypassCSP: true, reducedMotion: 'reduce' });
    w.page = await w.context.newPage();
    // The console authenticates with the session only; any request with a key is recorded.
    w.page.on('request', (request) => {
      if (request.headers()['x-api-key'] !== undefined) w.keyRequests.push(new URL(request.url()).pathname);
    });
  }, 120_000);

  afterAll(async () => {
    await w.browser?.close();
    await Promise.all((w.cloudWorkers ?? []).map((worker) => worker.stop()));
    await w.worker?.close();
    await w.receiver?.close();
    w.ca?.dispose();
    await w.t?.close();
    await w.model?.close();
    if (w.firstLoadJs && Object.keys(w.firstLoadJs).length) process.stderr.write(`console first-load JavaScript: ${JSON.stringify(w.firstLoadJs)}\n`);
  });

  // The steps share one browser tab and build on each other, in this order; after a
  // failure the later steps are skipped rather than failing for the same reason.
  let failed = false;
  const step = (name: string, flow: (world: World) => Promise<void>, timeout: number) =>
    test(name, async (ctx) => {
      if (failed) ctx.skip();
      try {
        await flow(w);
      } catch (error) {
        failed = true;
        // What the page showed when it failed, for whoever reads the test output.
        await w.page?.screenshot({ path: join(tmpdir(), 'console-e2e-failure.png') }).catch(() => undefined);
        process.stderr.write(`console e2e failed on ${w.page?.url()}; screenshot: ${join(tmpdir(), 'console-e2e-failure.png')}\n`);
        throw error;
      }
    }, timeout);
  step('the first load of / is small, and sign-in says what went wrong', signedOutFirstLoad, 60_000);
  step('a new person signs up and lands on the overview with a 14-day trial', signUp, 30_000);
  step('the keyboard reaches the page and dialogs', keyboard, 30_000);
  step('API keys: created, shown once, copied, used with fetch, AI-client preset, revoked', apiKeys, 60_000);
  step('macros: created, listed with paging and a filter, block program edited, deleted', macros, 90_000);
  step('code uploaded as a zip from the page and pushed with svc code push shows as the macro code state', code, 60_000);
  step('settings profiles of a Python macro', profiles, 60_000);
  step('groups and devices: created, changed, filtered, deleted', groupsAndDevices, 90_000);
  step('runs: a local run reported, its log tailed live, ended, the history filtered', runs, 90_000);
  step('webhooks: endpoint, test delivery received and read, redelivered, custom event', webhooks, 90_000);
  step('proxies: imported with per-line errors, checked, assigned, revealed, usage', proxies, 90_000);
  step('the overview and the plan page', account, 30_000);
  step('a cloud device: started, live view tapped, screenshot, APK installed, a block macro run, opened from the run history and stopped there, a failed run’s trace, deleted', cloudDevice, 210_000);
  step('menu maps: an app explored on a cloud device, its map listed, drawn with thumbnails, deleted', menuMaps, 120_000);
  step('authoring: a session followed as a conversation, its question answered, its files installed into a macro; another stopped; the credits spent', authoring, 120_000);
  step('authoring without a model endpoint: the page says it is not configured and how', authoringNotConfigured, 60_000);
  step('schedules: made through the form (a bad cron refused), listed with its device and next fire time, its page, edited', schedules, 60_000);
  step('images: uploads refused and made, previewed, a template cropped from a cloud device screen, filtered, deleted', imageLibrary, 120_000);
  step('marketplace: browsed, searched, ordered, a listing installed at version 1 and reviewed, a secret refused, a macro published and hidden', marketplace, 90_000);
  step('signing out ends the session; signing in again lists devices with the session alone', signOutAndIn, 60_000);
  step('a lapsed plan: keys answer 402, the console still reads every page, and it never sent a key', lapsedPlan, 90_000);
});

