// The rules of decisions.md §16 through the tool server (official MCP SDK client) on `sim`:
// every selector key, strictness without waiting, each part of the time-out message, waiting
// for an element to go, scroll_to with and without the end reached, and bad selectors refused
// naming the key. (Python runs and block programs: locators-runs.test.ts.)
import { beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/index.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { call, data, failure } from '../mcp/helpers/client.js';
import { useMcpWorld } from '../mcp/helpers/world.js';

const w = useMcpWorld();
let client: Client;
let lease_id: string;

type El = { element_id: string; text: string; bounds: { left: number; top: number; right: number; bottom: number } };
const find = async (selector: Record<string, unknown>) => data<{ items: El[] }>(await call(client, 'device_find', { lease_id, selector })).items.map((e) => e.element_id);

async function catalog() {
  await call(client, 'app_close', { lease_id, package: DEMO_APP_PACKAGE });
  await call(client, 'app_open', { lease_id, package: DEMO_APP_PACKAGE });
}

async function signIn() {
  await catalog();
  await call(client, 'device_tap', { lease_id, selector: { desc: 'Account' } });
  await call(client, 'device_wait_for', { lease_id, selector: { resource_id: 'sign_in' } });
}

beforeAll(async () => {
  const device = await createCloudDevice(w.t.app, w.owner, { name: 'Locators' });
  client = await w.clientFor(w.owner, ['devices:control']);
  ({ lease_id } = data<{ lease_id: string }>(await call(client, 'device_lease', { device_id: device.id })));
});

describe('selector keys', () => {
  test('each key narrows the matches as §16 says', async () => {
    await signIn();
    expect(await find({ text: '  Sign in ' })).toEqual(['title', 'sign_in']);
    expect(await find({ text: 'sign in' })).toEqual([]);
    expect(await find({ text_contains: 'Sign in' })).toEqual(['title', 'intro', 'sign_in']);
    expect(await find({ text_matches: '^Sign in$' })).toEqual(['title', 'sign_in']);
    expect(await find({ text_matches: 'orders and \\w+ addresses' })).toEqual(['intro']);
    expect(await find({ resource_id: 'sign_in' })).toEqual(['sign_in']);
    expect(await find({ resource_id: 'com.example.shop:id/sign_in' })).toEqual(['sign_in']);
    expect(await find({ resource_id: 'other.app:id/sign_in' })).toEqual([]);
    expect(await find({ desc: 'Navigate up' })).toEqual(['navigate_up']);
    expect(await find({ desc_contains: 'Navigate' })).toEqual(['navigate_up']);
    expect(await find({ class_name: 'android.widget.EditText' })).toEqual(['email', 'password']);
    expect(await find({ clickable: true, text: 'Sign in' })).toEqual(['sign_in']);
    expect(await find({ editable: true, index: 1 })).toEqual(['password']);
    expect(await find({ editable: true, index: 2 })).toEqual([]);
    expect(await find({ scrollable: true })).toEqual([]);
    expect((await find({ scrollable: false })).length).toBeGreaterThan(5);
  });

  test('image_id with threshold, and ocr_text, read the picture', { timeout: 90_000 }, async () => {
    await catalog();
    const image = data<{ id: string }>(await call(client, 'template_crop', { lease_id, x: 48, y: 630, w: 168, h: 168, name: 'beans thumb' }));
    const [match] = data<{ items: El[] }>(await call(client, 'device_find', { lease_id, selector: { image_id: image.id, threshold: 0.8 } })).items;
    expect(match).toMatchObject({ element_id: `image:${image.id}`, bounds: { left: 48, top: 630, right: 216, bottom: 798 } });
    const tapped = data<{ x: number; y: number }>(await call(client, 'device_tap', { lease_id, selector: { image_id: image.id } }));
    expect(tapped).toMatchObject({ x: 132, y: 714 });
    await call(client, 'device_key', { lease_id, key: 'BACK' });
    const read = data<{ items: El[] }>(await call(client, 'device_find', { lease_id, selector: { ocr_text: 'Corner' } })).items;
    expect(read.length).toBeGreaterThanOrEqual(1);
    expect(read[0].text).toContain('Corner');
    expect(read[0].bounds.top).toBeLessThan(260);
  });
});

describe('strictness and waiting', () => {
  test('more than one match fails at once with ambiguous_selector, naming up to five, without waiting', async () => {
    await catalog();
    const started = Date.now();
    const { code, text } = failure(await call(client, 'device_tap', { lease_id, selector: { clickable: true }, timeout_ms: 5000 }));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(code).toBe('ambiguous_selector');
    expect(text).toMatch(/^The selector clickable=true matches (\d+) elements: /);
    expect(text.split('; ').length).toBe(6); // five named, then "and N more"
    expect(text).toMatch(/\[\d+,\d+,\d+,\d+\]/);
    expect(text).toMatch(/Add index \(0 to \d+\) or narrow the selector\.$/);
    expect(data(await call(client, 'device_tap', { lease_id, selector: { clickable: true, index: 0 } }))).toMatchObject({ hit: { element_id: 'account' } });
  });

  test('the time-out names the selector, the time waited, the app and activity, the closest texts and a guess', async () => {
    await signIn();
    const started = Date.now();
    const { code, text } = failure(await call(client, 'device_tap', { lease_id, selector: { text: 'Sign In' }, timeout_ms: 700 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(code).toBe('element_not_found');
    expect(text).toMatch(/^No element text='Sign In' after 0\.7 s on com\.example\.shop\/\.SignInActivity\. On screen: 'Sign in', /);
    expect(text).toMatch(/Did you mean text='Sign in'\?$/);
    const shown = /On screen: (.*)\. Did/.exec(text)?.[1].split(', ') ?? [];
    expect(shown.length).toBeLessThanOrEqual(10);
    // By resource id: the guess is a resource id.
    expect(failure(await call(client, 'device_wait_for', { lease_id, selector: { resource_id: 'sign_inn' }, timeout_ms: 0 })).text).toMatch(
      /^No element resource_id='sign_inn' after 0\.0 s on .*Did you mean resource_id='sign_in'\?$/,
    );
  });

  test('wait_for answers the element; gone waits for it to disappear', async () => {
    await signIn();
    expect(data(await call(client, 'device_wait_for', { lease_id, selector: { text: 'Welcome back' } }))).toMatchObject({ element: { element_id: 'welcome', center: { x: 540, y: 380 } } });
    const stillThere = failure(await call(client, 'device_wait_for', { lease_id, selector: { text: 'Welcome back' }, gone: true, timeout_ms: 300 }));
    expect(stillThere).toMatchObject({ code: 'element_still_visible' });
    expect(stillThere.text).toMatch(/^The element text='Welcome back' was still on the screen after 0\.3 s on com\.example\.shop\/\.SignInActivity\.$/);
    await call(client, 'device_key', { lease_id, key: 'BACK' });
    expect(data(await call(client, 'device_wait_for', { lease_id, selector: { text: 'Welcome back' }, gone: true }))).toEqual({ element: null });
  });

  test('type with a selector focuses, clears and submits; a secret is not echoed', async () => {
    await signIn();
    await call(client, 'device_type', { lease_id, selector: { resource_id: 'email' }, text: 'ada@example.com' });
    const typed = data<{ characters: number }>(await call(client, 'device_type', { lease_id, selector: { resource_id: 'email' }, text: 'bob@example.com', clear: true, secret: true }));
    expect(typed).toMatchObject({ characters: 15 });
    expect(JSON.stringify(typed)).not.toContain('bob@example.com');
    expect(await find({ text: 'bob@example.com' })).toEqual(['email']);
  });

  test('scroll_to: found at once; the end reached; the swipes used up', async () => {
    await catalog();
    expect(data(await call(client, 'device_scroll_to', { lease_id, selector: { text: 'Ceramic mug' } }))).toMatchObject({ element: { element_id: 'name_mug' }, swipes: 0 });
    const ended = failure(await call(client, 'device_scroll_to', { lease_id, selector: { text: 'Paper filters' }, max_swipes: 5 }));
    expect(ended.code).toBe('element_not_found');
    expect(ended.text).toMatch(/^No element text='Paper filters' after 1 swipe down on com\.example\.shop\/\.\w+\. The end of the content was reached\./);
    const short = failure(await call(client, 'device_scroll_to', { lease_id, selector: { text: 'Paper filters' }, max_swipes: 0 }));
    expect(short.text).toMatch(/after 0 swipes down on .*The end of the content was not reached\./);
  });
});

describe('bad selectors', () => {
  test('an empty selector, an unknown key and a bad or one-dialect pattern are refused naming the key', async () => {
    const refused = async (selector: unknown) => failure(await call(client, 'device_find', { lease_id, selector }));
    expect(await refused({})).toMatchObject({ code: 'validation_failed', text: expect.stringContaining('arguments.selector') });
    expect(await refused({ text: 'a', colour: 'red' })).toMatchObject({ code: 'validation_failed', text: expect.stringContaining('arguments.selector.colour is not an accepted field') });
    expect(await refused({ text_matches: '(' })).toMatchObject({ code: 'validation_failed', text: expect.stringContaining('selector.text_matches is not a valid regular expression') });
    expect(await refused({ text_matches: '(?P<n>a)' })).toMatchObject({ text: expect.stringContaining('selector.text_matches named groups written (?P<name>…) are Python only') });
    expect(await refused({ text_matches: '(?i)sign' })).toMatchObject({ text: expect.stringContaining('selector.text_matches inline flags') });
    expect(await refused({ image_id: 'img_0123456789abcdef', text: 'a' })).toMatchObject({ text: expect.stringContaining('selector.text cannot be combined with image_id') });
    expect(failure(await call(client, 'device_tap', { lease_id, selector: { text: 'a' }, x: 1, y: 2 }))).toMatchObject({ code: 'validation_failed' });
  });
});
