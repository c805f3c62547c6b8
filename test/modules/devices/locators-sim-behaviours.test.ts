// Locators against the simulated phone's real-app behaviours (decisions.md §15, §16): waiting
// through a loading screen and for an element that appears late, waiting for a toast to go,
// scroll_to in a scrolling list (found, end reached, swipes used up), the keyboard covering an
// element, and a program's interrupt clearing a dialog that comes on an app open. The app is
// installed from SIM_APPS_DIR, as people install a mock of their own app.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createCloudDevice } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';
import { call, connect, data, failure, listeningApp } from '../mcp/helpers/client.js';

const PKG = 'com.example.behave';
const el = (id: string, top: number, extra: object = {}) => ({ id, class: 'android.widget.TextView', text: id, resource_id: `${PKG}:id/${id}`, content_desc: '', bounds: { left: 0, top, right: 1080, bottom: top + 200 }, clickable: false, editable: false, ...extra });
const screen = (id: string, elements: object[], extra: object = {}) => ({ id, title: id, activity: `${PKG}.${id}`, elements, ...extra });
const APP = {
  package: PKG,
  label: 'Behave',
  version_name: '1.0',
  interrupts: [{ screen: 'nag', every_opens: 2 }],
  screens: [
    screen('start', [el('to_slow', 300, { clickable: true, to: 'slow' }), el('to_list', 600, { clickable: true, to: 'list' }), el('to_form', 900, { clickable: true, to: 'form' })]),
    screen('slow', [el('later', 300, { appear_after_ms: 1000 }), el('toast', 600, { hide_after_ms: 1500 }), el('always', 900, { clickable: true, to: 'back' })], { loading_ms: { min: 600, max: 600 } }),
    screen('list', [el('head', 84), ...Array.from({ length: 30 }, (_, i) => el(`row_${i}`, 300 + i * 200, { clickable: true, to: 'start' })), el('bar', 2200, { fixed: true })], { scroll: { top: 300, bottom: 2200 } }),
    screen('form', [el('name', 300, { class: 'android.widget.EditText', editable: true }), el('submit', 2000, { class: 'android.widget.Button', clickable: true, to: 'start' })]),
    screen('nag', [el('panel', 900, { class: 'android.widget.LinearLayout', bounds: { left: 100, top: 900, right: 980, bottom: 1500 } }), el('nag_text', 950, { bounds: { left: 150, top: 950, right: 930, bottom: 1100 } }), el('not_now', 1300, { class: 'android.widget.Button', clickable: true, to: 'back', bounds: { left: 150, top: 1300, right: 930, bottom: 1450 } })]),
  ],
};

let t: Awaited<ReturnType<typeof listeningApp>>;
let owner: SignedUpUser;
let client: Client;
let lease_id: string;
let deviceId: number;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-apps-'));
  writeFileSync(join(dir, 'behave.json'), JSON.stringify(APP));
  t = await listeningApp({ env: { SIM_APPS_DIR: dir, SIM_SEED: '7', RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' } });
  owner = await signUp(t.app);
  deviceId = (await createCloudDevice(t.app, owner, { name: 'Behaving' })).id;
  const { key } = await createKey(t.app, owner, { scopes: ['devices:control', 'macros:run', 'runs:read'] });
  client = await connect(t.baseUrl, { headers: withKey(key) });
  ({ lease_id } = data<{ lease_id: string }>(await call(client, 'device_lease', { device_id: deviceId })));
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

async function start() {
  await call(client, 'app_close', { lease_id, package: PKG });
  await call(client, 'app_open', { lease_id, package: PKG });
  // Every second open brings the nag dialog; clear it when it is there.
  if (data<{ items: unknown[] }>(await call(client, 'device_find', { lease_id, selector: { resource_id: 'not_now' } })).items.length > 0) await call(client, 'device_tap', { lease_id, selector: { resource_id: 'not_now' } });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The simulated screen's clock is the app's clock (a manual one in tests): a wait that is
// under way sees the loading end, or an element come or go, when the clock moves on.
test('a tap waits through the loading screen; a late element is waited for; a toast is waited out', async () => {
  await start();
  await call(client, 'device_tap', { lease_id, selector: { resource_id: 'to_slow' } });
  const loading = failure(await call(client, 'device_tap', { lease_id, selector: { resource_id: 'always' }, timeout_ms: 200 }));
  expect(loading.text).toMatch(/^No element resource_id='always' after 0\.2 s on com\.example\.behave\/\.slow\. A progress indicator still covered the screen\. On screen: 'progress'\.$/);

  const tap = call(client, 'device_find', { lease_id, selector: { resource_id: 'always' } }).then(async (now) => {
    // Nothing to act on yet: the spinner covers the screen.
    expect(data<{ items: unknown[] }>(now).items).toEqual([]);
    return call(client, 'device_wait_for', { lease_id, selector: { resource_id: 'always' }, timeout_ms: 5000 });
  });
  await pause(400);
  t.clock.advance(600);
  expect(data(await tap)).toMatchObject({ element: { element_id: 'always' } });

  const late = call(client, 'device_wait_for', { lease_id, selector: { text: 'later' }, timeout_ms: 5000 });
  await pause(400);
  t.clock.advance(1000);
  expect(data(await late)).toMatchObject({ element: { element_id: 'later' } });

  const gone = call(client, 'device_wait_for', { lease_id, selector: { text: 'toast' }, gone: true, timeout_ms: 5000 });
  await pause(400);
  expect(data<{ items: unknown[] }>(await call(client, 'device_find', { lease_id, selector: { text: 'toast' } })).items).toHaveLength(1);
  t.clock.advance(1000);
  expect(data(await gone)).toEqual({ element: null });
});

test('scroll_to in a scrolling list: found after swipes, the end reached, the swipes used up', async () => {
  await start();
  await call(client, 'device_tap', { lease_id, selector: { resource_id: 'to_list' } });
  expect(data<{ items: { element_id: string }[] }>(await call(client, 'device_find', { lease_id, selector: { scrollable: true } })).items).toHaveLength(1);
  const found = data<{ element: { element_id: string }; swipes: number }>(await call(client, 'device_scroll_to', { lease_id, selector: { text: 'row_20' } }));
  expect(found.element.element_id).toBe('row_20');
  expect(found.swipes).toBeGreaterThan(0);
  const short = failure(await call(client, 'device_scroll_to', { lease_id, selector: { text: 'row_99' }, max_swipes: 1 }));
  expect(short.text).toMatch(/^No element text='row_99' after 1 swipe down on com\.example\.behave\/\.list\. The end of the content was not reached\./);
  const ended = failure(await call(client, 'device_scroll_to', { lease_id, selector: { text: 'row_99' }, max_swipes: 30 }));
  expect(ended.text).toMatch(/after \d+ swipes down on com\.example\.behave\/\.list\. The end of the content was reached\./);
  expect(data(await call(client, 'device_scroll_to', { lease_id, selector: { text: 'row_0' }, direction: 'up', max_swipes: 30 }))).toMatchObject({ element: { element_id: 'row_0' } });
});

test('an element under the keyboard is not visible until the keyboard goes', async () => {
  await start();
  await call(client, 'device_tap', { lease_id, selector: { resource_id: 'to_form' } });
  await call(client, 'device_type', { lease_id, selector: { resource_id: 'name' }, text: 'Ada' });
  expect(failure(await call(client, 'device_wait_for', { lease_id, selector: { resource_id: 'submit' }, timeout_ms: 200 })).code).toBe('element_not_found');
  await call(client, 'device_key', { lease_id, key: 'BACK' });
  expect(data(await call(client, 'device_wait_for', { lease_id, selector: { resource_id: 'submit' } }))).toMatchObject({ element: { element_id: 'submit' } });
});

test('a block program clears the dialog of every second open with its interrupt, and logs it', async () => {
  await call(client, 'device_release', { lease_id });
  const program = {
    version: 1,
    interrupts: [{ when: { resource_id: 'not_now' }, do: { type: 'tap' } }],
    steps: [
      { type: 'close_app', package: PKG },
      { type: 'repeat', times: 2, steps: [{ type: 'open_app', package: PKG }, { type: 'tap', selector: { resource_id: 'to_list' } }, { type: 'wait_for', selector: { resource_id: 'head' } }, { type: 'key', key: 'BACK' }] },
    ],
  };
  const made = await t.app.inject({ method: 'POST', url: '/api/macros', headers: owner.auth, payload: { name: 'Nagged', kind: 'block', blocks: program } });
  const { key } = await createKey(t.app, owner, { scopes: ['macros:run', 'runs:read'] });
  const headers = withKey(key);
  const run = (await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/run`, headers, payload: { macro_id: made.json().id } })).json() as { id: number; execution_id: string };
  await expect.poll(async () => (await t.app.inject({ url: `/api/hosted/runs/${run.id}`, headers })).json().state, { timeout: 30_000, interval: 50 }).toMatch(/^(finished|failed)$/);
  const lines = (await t.app.inject({ url: `/api/executions/${run.execution_id}/logs?max_lines=1000`, headers })).json().lines as string[];
  expect((await t.app.inject({ url: `/api/hosted/runs/${run.id}`, headers })).json().state, lines.join('\n')).toBe('finished');
  expect(lines.filter((l) => l === "handled interrupt: tap resource_id='not_now'").length).toBeGreaterThanOrEqual(1);
  ({ lease_id } = data<{ lease_id: string }>(await call(client, 'device_lease', { device_id: deviceId })));
});
