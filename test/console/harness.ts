// The browser side of the console's end-to-end tests: Debian's Chromium driven headless by
// playwright-core (Playwright gives each launch a fresh temporary --user-data-dir), the
// console built when its sources changed since the last build, an axe-core check, screenshots.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { TEST_DATABASE_URL } from '../helpers/engine.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];
export const VIEWPORT = { width: 1280, height: 800 };
export const SCREENSHOTS = 'docs/screenshots';

/** Why the browser tests do not run here, or null when they do. */
export function skipReason(): string | null {
  if (TEST_DATABASE_URL) return 'the console end-to-end tests run on the SQLite pass only (DATABASE_URL is set)';
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium) to run the console end-to-end tests`;
  return null;
}

/**
 * Builds the console unless the last build was made from the same web/ and lock file (their
 * content hash, scripts/build-changed.js, the check `npm start` makes too).
 */
export function buildConsoleIfStale(): void {
  execFileSync(process.execPath, ['scripts/build-changed.js', 'console'], { stdio: 'pipe' });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** axe-core on the current page: no serious or critical violation. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const require = createRequire(import.meta.url);
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })))`)) as { id: string; impact: string; help: string; targets: string[] }[];
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad, `axe-core on ${what}: ${JSON.stringify(bad, null, 2)}`).toEqual([]);
}

/** A 1280×800 screenshot for the README, after the page settled. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.waitForLoadState('networkidle');
  await page.evaluate('document.fonts.ready');
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled', caret: 'hide' });
}

/** Every page gets both: the accessibility check and its screenshot. */
export async function checkPage(page: Page, name: string): Promise<void> {
  // No hover highlight in the picture or in the contrast check.
  await page.mouse.move(VIEWPORT.width - 2, VIEWPORT.height - 2);
  await page.waitForLoadState('networkidle');
  await expectAccessible(page, name);
  // The picture shows the page at rest, without the focus ring of the last field typed in.
  await page.evaluate('document.activeElement && document.activeElement !== document.body && !document.activeElement.closest("[role=dialog]") && document.activeElement.blur()');
  await screenshot(page, name);
}
