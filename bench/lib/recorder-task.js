// @ts-check
// The Daily Feed task of bench/recorder.js, recorded through the recorder's routes as the
// console sends them (recordTask), or in the console itself (recordInConsole, --console): Debian's
// Chromium on the app's own pages, signed in with the session, the device's drawer open on its
// live view; "Record", then the person's clicks and drags on the live view picture (the console
// turns them into the recorder's inputs: a click taps, a press that moves swipes), then "Save…"
// twice (a block macro, a code macro) and "Stop". The UI tree stands in for the person's eyes,
// as in recordTask; every input waits for its step to show in the step list.
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { request } from '../lib.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];
const SCREEN = { width: 1080, height: 2400 };

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
const centre = (/** @type {{ bounds: { left: number; top: number; right: number; bottom: number } }} */ e) => ({ x: Math.floor((e.bounds.left + e.bounds.right) / 2), y: Math.floor((e.bounds.top + e.bounds.bottom) / 2) });

/**
 * Looks at the screen until `find` names an element (a person waiting for what they expect).
 * @param {any} driver @param {(tree: any[]) => any} find @param {string} what
 */
async function lookFor(driver, find, what, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find(await driver.uiTree());
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`the recording never saw ${what}`);
    await sleep(100);
  }
}

/**
 * The person's session at the live view, through the recorder's routes (what the console sends);
 * answers the recording id and its steps.
 * @param {string} base @param {Record<string, string>} auth @param {number} deviceId @param {any} driver
 * @param {{ feed: string; postTitle: string; band: { top: number; bottom: number } }} task
 */
export async function recordTask(base, auth, deviceId, driver, { feed: FEED, postTitle: POST_TITLE, band: BAND }) {
  const recording = await request(base, 'POST', `/api/hosted/devices/${deviceId}/recording`, { body: {}, headers: auth });
  const rid = recording.id;
  /** @param {object} body */
  const input = (body) => request(base, 'POST', `/api/hosted/recordings/${rid}/inputs`, { body, headers: auth });

  const icon = await lookFor(driver, (tree) => tree.find((e) => e.text === 'Daily Feed' && e.clickable), 'the Daily Feed icon');
  await input({ type: 'tap', ...centre(icon) });
  const notNow = await lookFor(driver, (tree) => tree.find((e) => e.text === 'Not now'), 'the rating dialog');
  await input({ type: 'tap', ...centre(notNow) });
  await lookFor(driver, (tree) => tree.find((e) => e.resource_id === `${FEED}:id/post_title`), 'the loaded feed');
  let swipes = 0;
  for (;;) {
    const tree = await driver.uiTree();
    const post = tree.find((e) => e.text === POST_TITLE);
    // Fully in the band, so the person sees the whole headline before tapping it.
    if (post && post.bounds.top > BAND.top && post.bounds.bottom < BAND.bottom - 100) {
      await input({ type: 'tap', ...centre(post) });
      break;
    }
    if (swipes >= 40) throw new Error('the 80th post never came into view');
    await input({ type: 'swipe', from: { x: 540, y: 1900 }, to: { x: 540, y: 650 }, ms: 400 });
    swipes += 1;
    await sleep(150);
  }
  const save = await lookFor(driver, (tree) => tree.find((e) => e.text === 'Save post'), 'the Save post button');
  await input({ type: 'tap', ...centre(save) });
  await lookFor(driver, (tree) => tree.find((e) => e.text === 'Saved'), 'the post saved');
  const steps = (await request(base, 'GET', `/api/hosted/recordings/${rid}`, { headers: auth })).steps;
  return { rid, steps, swipes };
}


/**
 * Polls `check` until it answers something truthy.
 * @template T @param {() => Promise<T>} check @param {string} what
 */
async function until(check, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`the console never showed ${what}`);
    await sleep(100);
  }
}

/**
 * Records the task in the console; answers the step count, the swipes made and the two saved macros' ids.
 * @param {{ base: string; token: string; deviceId: number; deviceName: string; driver: any; feed: string; postTitle: string; band: { top: number; bottom: number } }} the
 */
export async function recordInConsole(the) {
  // The console's pages, built from web/ when stale (as the console's end-to-end test does).
  execFileSync(process.execPath, ['scripts/build-changed.js', 'console'], { stdio: 'pipe' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const url = new URL(the.base);
    await context.addCookies([{ name: 'session', value: the.token, domain: url.hostname, path: '/', httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    await page.goto(`${the.base}/devices?device=${the.deviceId}`);
    const drawer = page.getByRole('dialog', { name: the.deviceName });
    await until(() => drawer.getByRole('button', { name: 'Record', exact: true }).isVisible(), 'the Record button');
    await drawer.getByRole('button', { name: 'Record', exact: true }).click();
    await until(() => drawer.getByText('Recording', { exact: true }).isVisible(), 'the recording under way');
    const live = drawer.getByTestId('live-view');
    const steps = drawer.getByRole('list', { name: 'Recorded steps' }).getByRole('listitem');
    let count = 0;
    const stepShown = async () => {
      count += 1;
      await until(async () => (await steps.count()) >= count, `step ${count} in the list`);
    };
    /** Where a device point is on the page. @param {{ x: number; y: number }} p */
    const onPage = async (p) => {
      await live.scrollIntoViewIfNeeded();
      const box = await live.boundingBox();
      if (!box) throw new Error('the live view has no box');
      return { x: box.x + ((p.x + 0.5) / SCREEN.width) * box.width, y: box.y + ((p.y + 0.5) / SCREEN.height) * box.height };
    };
    /** @param {{ bounds: { left: number; top: number; right: number; bottom: number } }} e */
    const click = async (e) => {
      const at = await onPage(centre(e));
      await page.mouse.click(at.x, at.y);
      await stepShown();
    };
    /** @param {(tree: any[]) => any} find @param {string} what */
    const look = (find, what) => until(async () => find(await the.driver.uiTree()), what, 15_000);

    await click(await look((tree) => tree.find((e) => e.text === 'Daily Feed' && e.clickable), 'the Daily Feed icon'));
    await click(await look((tree) => tree.find((e) => e.text === 'Not now'), 'the rating dialog'));
    await look((tree) => tree.find((e) => e.resource_id === `${the.feed}:id/post_title`), 'the loaded feed');
    let swipes = 0;
    for (;;) {
      const post = (await the.driver.uiTree()).find((/** @type {any} */ e) => e.text === the.postTitle);
      if (post && post.bounds.top > the.band.top && post.bounds.bottom < the.band.bottom - 100) {
        await click(post);
        break;
      }
      if (swipes >= 40) throw new Error('the 80th post never came into view');
      // A drag up the picture: pressed, moved, let go; the console sends it as a swipe.
      const from = await onPage({ x: 540, y: 1900 });
      const to = await onPage({ x: 540, y: 650 });
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(to.x, to.y, { steps: 8 });
      await page.mouse.up();
      await stepShown();
      swipes += 1;
      await sleep(150);
    }
    await click(await look((tree) => tree.find((e) => e.text === 'Save post'), 'the Save post button'));
    await look((tree) => tree.find((e) => e.text === 'Saved'), 'the post saved');

    /** @param {string} name @param {RegExp} kind */
    const saveAs = async (name, kind) => {
      await drawer.getByRole('button', { name: 'Save…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Save the recording as a macro' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
      await dialog.getByRole('radio', { name: kind }).check();
      await dialog.getByRole('button', { name: 'Save macro' }).click();
      const link = dialog.getByRole('link', { name });
      await until(() => link.isVisible(), `the saved macro "${name}"`);
      const id = Number((await link.getAttribute('href'))?.split('/').pop());
      await dialog.getByRole('button', { name: 'Done' }).click();
      return id;
    };
    const block = await saveAs('Daily Feed, recorded in the console (block)', /^Block macro/);
    const python = await saveAs('Daily Feed, recorded in the console (python)', /^Code macro/);
    await drawer.getByRole('group', { name: 'Recorder' }).getByRole('button', { name: 'Stop', exact: true }).click();
    await until(async () => !(await drawer.getByText('Recording', { exact: true }).isVisible()), 'the recording stopped');
    return { steps: count, swipes, macroIds: { block, python } };
  } finally {
    await browser.close();
  }
}
