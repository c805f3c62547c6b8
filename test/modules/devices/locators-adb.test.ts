// Locators on DEVICE_HOST=adb (decisions.md §16: "on sim and adb alike"), through the tool
// server with the official MCP SDK client, against the fake ADB server (a real ADB host-protocol
// server on 127.0.0.1 whose phone dumps its UI with uiautomator as a phone does): a selector
// taps what it names, strictness, the time-out message naming the activity and the nearest
// texts, waiting for an element to go, and a bad selector refused naming its key.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/index.js';
import type { FakeAdbServer } from '../../helpers/fake-adb/server.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';
import { call, connect, data, failure, listeningApp } from '../mcp/helpers/client.js';
import { startFakeAdb } from './hosts/helpers/adb.js';

let adb: FakeAdbServer;
let t: Awaited<ReturnType<typeof listeningApp>>;
let client: Client;
let lease_id: string;

type El = { element_id: string; text: string };
const find = async (selector: Record<string, unknown>) => data<{ items: El[] }>(await call(client, 'device_find', { lease_id, selector })).items.map((e) => e.text);

beforeAll(async () => {
  adb = await startFakeAdb([{ serial: 'emulator-5554', model: 'Pixel Fake' }]);
  t = await listeningApp({ env: { DEVICE_HOST: 'adb', ADB_SERVERS: `127.0.0.1:${adb.port}`, RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' } });
  const owner = await signUp(t.app);
  const device = await createCloudDevice(t.app, owner, { name: 'Over ADB' });
  const { key } = await createKey(t.app, owner, { scopes: ['devices:control'] });
  client = await connect(t.baseUrl, { headers: withKey(key) });
  ({ lease_id } = data<{ lease_id: string }>(await call(client, 'device_lease', { device_id: device.id })));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await t?.close();
  await adb?.close();
});

async function catalog() {
  await call(client, 'app_close', { lease_id, package: DEMO_APP_PACKAGE });
  await call(client, 'app_open', { lease_id, package: DEMO_APP_PACKAGE });
  await call(client, 'device_wait_for', { lease_id, selector: { text: 'Corner Shop' } });
}

test('a selector finds and taps what it names, read from the phone’s uiautomator dump', async () => {
  await catalog();
  expect(await find({ text: 'Espresso beans' })).toEqual(['Espresso beans']);
  expect(await find({ resource_id: 'com.example.shop:id/row_beans' })).toHaveLength(1);
  const tapped = data<{ element?: { text: string } }>(await call(client, 'device_tap', { lease_id, selector: { text: 'Espresso beans' } }));
  expect(tapped).toBeDefined();
  await call(client, 'device_wait_for', { lease_id, selector: { resource_id: 'add_to_cart' }, timeout_ms: 5000 });
  expect(await find({ text: 'Espresso beans', index: 0 })).toEqual(['Espresso beans']);
  await call(client, 'device_key', { lease_id, key: 'BACK' });
  // Gone: waiting for the product screen's button to disappear answers once it has.
  await call(client, 'device_wait_for', { lease_id, selector: { resource_id: 'add_to_cart' }, gone: true, timeout_ms: 5000 });
  // All of it went over ADB: the phone was asked for its UI with uiautomator and tapped with input.
  const asked = adb.services.map((s) => s.service).join('\n');
  expect(asked).toMatch(/uiautomator dump/);
  expect(asked).toMatch(/input (tap|touchscreen tap)/);
});

test('strict: several matches fail at once naming them; a missing element times out naming the activity and what is there', async () => {
  await catalog();
  const started = Date.now();
  const ambiguous = failure(await call(client, 'device_tap', { lease_id, selector: { clickable: true }, timeout_ms: 5000 }));
  expect(Date.now() - started).toBeLessThan(2500);
  expect(ambiguous.code).toBe('ambiguous_selector');
  const missing = failure(await call(client, 'device_tap', { lease_id, selector: { text: 'espresso beans' }, timeout_ms: 800 }));
  expect(missing.code).toBe('element_not_found');
  expect(missing.text).toMatch(/^No element text='espresso beans' after 0\.8 s on com\.example\.shop\/\S+\. On screen: .*'Espresso beans'.*Did you mean text='Espresso beans'\?/);
});

test('a bad selector is refused naming its key, before anything is done', async () => {
  expect(failure(await call(client, 'device_tap', { lease_id, selector: { txt: 'x' } }))).toMatchObject({ code: 'validation_failed', text: expect.stringMatching(/txt/) });
  expect(failure(await call(client, 'device_find', { lease_id, selector: { text_matches: '(' } }))).toMatchObject({ code: 'validation_failed', text: expect.stringMatching(/text_matches/) });
});
