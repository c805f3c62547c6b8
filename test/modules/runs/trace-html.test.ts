// The trace as one HTML file (decisions.md §17), opened in Chromium with every request
// blocked, as a person opens a file a colleague sent: the steps show, the failed one marked
// and selected with its frame drawn from inline data, and the page asks for no address.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/index.js';
import { blockMacro, closeWorld, cloudDevice, ended, servedWorld, startedRun, type World } from './helpers/device-run-world.js';
import { removeTempDirs } from './helpers/runner.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

const PROGRAM = {
  version: 1,
  steps: [
    { type: 'open_app', package: DEMO_APP_PACKAGE },
    { type: 'tap', element_id: 'row_beans' },
    { type: 'key', key: 'BACK' },
    { type: 'tap', selector: { text: '<script>alert(1)</script>' }, timeout_ms: 300 },
  ],
};

let w: World;
beforeAll(async () => {
  w = await servedWorld();
});
afterAll(async () => {
  await closeWorld(w);
  removeTempDirs();
});

describe.skipIf(!existsSync(CHROMIUM))('trace.html', () => {
  test('opened with every request blocked, it shows the steps, the failed one selected with its frame', async () => {
    const run = await startedRun(w, await cloudDevice(w), await blockMacro(w, PROGRAM));
    expect((await ended(w, run.id)).state).toBe('failed');
    const res = await w.t.app.inject({ url: `/api/executions/${run.execution_id}/trace.html`, headers: w.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body;
    // The selector text is the macro's: written as text, never as markup.
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    try {
      const page = await browser.newPage();
      const asked: string[] = [];
      await page.route('**/*', async (route) => {
        const url = route.request().url();
        if (url === 'http://trace.invalid/trace.html') return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
        asked.push(url);
        return route.abort('blockedbyclient');
      });
      const dialogs: string[] = [];
      page.on('dialog', (d) => (dialogs.push(d.message()), void d.dismiss()));
      await page.goto('http://trace.invalid/trace.html');
      const steps = page.locator('#steps li');
      await expect.poll(() => steps.count()).toBe(4);
      expect(await steps.nth(0).innerText()).toContain('1. app_open (steps.0)');
      expect(await steps.nth(3).innerText()).toContain('the step the run failed on');
      expect(await steps.nth(3).innerText()).toContain('element_not_found');
      // The failed step is selected: its heading, and its "before" frame drawn from inline data.
      expect(await page.locator('#details h2').innerText()).toBe('Step 4: tap (failed)');
      const before = page.locator('#details figure img').first();
      await expect.poll(() => before.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
      expect(await before.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
      expect(await page.locator('#film img').count()).toBeGreaterThan(1);
      // Choosing another step shows its frames.
      await steps.nth(1).locator('button').click();
      expect(await page.locator('#details h2').innerText()).toBe('Step 2: tap');
      expect(await page.locator('#details figure img').count()).toBe(2);
      expect(asked).toEqual([]);
      expect(dialogs).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
