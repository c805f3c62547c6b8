// Hostile tool arguments: huge strings, wrong types, deep objects, negative and huge numbers,
// unknown, forged, expired and someone else's lease ids. Every answer is an error result
// with a code (never a JSON-RPC error, never a 500), and nothing is changed.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCloudDevice } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';
import { call, connect, data, failure, listeningApp } from './helpers/client.js';

let t: Awaited<ReturnType<typeof listeningApp>>;
let owner: SignedUpUser;
let stranger: SignedUpUser;
let client: Client;
let key: string;
let leaseId: string;
let deviceId: number;
let macroId: number;

beforeAll(async () => {
  t = await listeningApp({ env: { RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' } });
  owner = await signUp(t.app);
  stranger = await signUp(t.app);
  key = (await createKey(t.app, owner, { name: 'hostile' })).key;
  client = await connect(t.baseUrl, { headers: withKey(key) });
  deviceId = (await createCloudDevice(t.app, owner, { name: 'Target' })).id;
  leaseId = data<{ lease_id: string }>(await call(client, 'device_lease', { device_id: deviceId, minutes: 120 })).lease_id;
  const res = await t.app.inject({ method: 'POST', url: '/api/macros', headers: owner.auth, payload: { name: 'Blocks', kind: 'block', blocks: { version: 1, steps: [{ type: 'log', message: 'x' }] } } });
  macroId = res.json().id;
});
afterAll(async () => {
  await client.close();
  await t.close();
});

/** A JSON-RPC tools/call sent as raw JSON, so arguments the SDK client would never send get through. */
async function rawCall(name: unknown, args: unknown): Promise<{ status: number; body: { result?: CallToolResult; error?: unknown } }> {
  const res = await fetch(`${t.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return { status: res.status, body: (await res.json()) as { result?: CallToolResult; error?: unknown } };
}

async function refused(name: string, args: Record<string, unknown>, code = 'validation_failed') {
  const result = await call(client, name, args);
  expect(failure(result), `${name} ${JSON.stringify(args).slice(0, 200)}`).toMatchObject({ code });
  expect(failure(result).text.length).toBeLessThan(2000);
}

const deep = (depth: number) => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
};

describe('hostile arguments are error results', () => {
  test('huge strings', async () => {
    const big = 'x'.repeat(300_000);
    await refused('device_type', { lease_id: leaseId, text: big });
    await refused('device_key', { lease_id: leaseId, key: big });
    await refused('device_tap', { lease_id: leaseId, text: big });
    await refused('device_tap', { lease_id: leaseId, element_id: big });
    await refused('app_open', { lease_id: leaseId, package: big });
    await refused('device_screenshot', { lease_id: big });
    await refused('macro_list', { name: big });
    await refused('run_logs', { execution_id: big });
    // An unknown tool name is echoed only in part.
    expect(failure(await call(client, big))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(client, big)).text.length).toBeLessThan(300);
  });

  test('wrong types', async () => {
    for (const deviceIdValue of ['1', null, [1], { id: 1 }, true, 1.5]) await refused('device_lease', { device_id: deviceIdValue });
    for (const minutes of [0, -1, 121, 1.5, '15', null, 1e308]) await refused('device_lease', { device_id: deviceId, minutes });
    for (const lease of [1, null, ['lease_x'], { lease_id: leaseId }]) await refused('device_ui_tree', { lease_id: lease });
    await refused('device_type', { lease_id: leaseId, text: 42 });
    await refused('device_type', { lease_id: leaseId, text: 'x', submit: 'yes' });
    await refused('device_swipe', { lease_id: leaseId, from: [1, 2], to: { x: 1, y: 2 } });
    await refused('device_swipe', { lease_id: leaseId, from: { x: 1 }, to: { x: 1, y: 2 } });
    await refused('device_read_text', { lease_id: leaseId, region: 'everything' });
    await refused('run_start', { device_id: deviceId, macro_id: macroId, args: 'speed=2' });
    await refused('run_start', { device_id: deviceId, macro_id: macroId, args: [1, 2] });
    await refused('run_logs', { execution_id: 'cr_0123', since_seq: -1 });
    await refused('device_list', { extra: 1 });
  });

  test('arguments that are not an object, and a name that is not a string', async () => {
    for (const args of ['text', 42, [1, 2], true]) {
      const { status, body } = await rawCall('device_list', args);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.error, JSON.stringify(body)).toBeUndefined();
      expect(body.result?.isError).toBe(true);
      expect(body.result?._meta).toMatchObject({ code: 'validation_failed' });
    }
    for (const name of [42, null, { name: 'device_list' }]) {
      const { status, body } = await rawCall(name, {});
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.result?._meta, JSON.stringify(body)).toMatchObject({ code: 'validation_failed' });
    }
  });

  test('a batch: refused calls are answered beside the others', async () => {
    const res = await fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-03-26' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'device_list', arguments: 'oops' } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'device_list', arguments: {} } },
      ]),
    });
    const answers = (await res.json()) as { id: number; result?: CallToolResult; error?: unknown }[];
    expect(res.status, JSON.stringify(answers)).toBe(200);
    const byId = new Map(answers.map((a) => [a.id, a]));
    expect(byId.get(1)?.result).toMatchObject({ isError: true, _meta: { code: 'validation_failed' } });
    expect(byId.get(2)?.result?.isError).toBeFalsy();
    expect(byId.get(2)?.result?.structuredContent).toMatchObject({ items: [{ id: deviceId }] });
  });

  test('bodies the app refuses elsewhere (deep, NUL, lone surrogate, prototype key) are error results for a tool call', async () => {
    const nul = await rawCall('device_type', { lease_id: leaseId, text: 'a\u0000b' });
    expect(nul.body.result, JSON.stringify(nul.body)).toMatchObject({ isError: true, _meta: { code: 'validation_failed' } });
    expect(nul.body.result?.content[0]).toMatchObject({ text: expect.stringContaining('arguments.text') });
    const lone = await rawCall('device_type', { lease_id: leaseId, text: '\ud800' });
    expect(lone.body.result?._meta).toMatchObject({ code: 'validation_failed' });
    const proto = await fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_validate","arguments":{"macro_id":${macroId},"args":{"__proto__":{"x":1}}}}}`,
    });
    expect(proto.status).toBe(200);
    expect(await proto.json()).toMatchObject({ id: 7, result: { isError: true, _meta: { code: 'bad_request' } } });
    // Not a tool call: the app's usual answer.
    const deepList = await fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: deep(100) } }),
    });
    expect(deepList.status).toBe(422);
  });

  test('deep objects', async () => {
    await refused('device_read_text', { lease_id: leaseId, region: deep(200) });
    await refused('device_lease', { device_id: deep(200) });
    await refused('run_start', { device_id: deviceId, macro_id: macroId, args: { nested: deep(2000) } });
    await refused('run_validate', { macro_id: macroId, args: { nested: deep(2000) } });
  });

  test('negative, fractional and huge numbers', async () => {
    for (const [x, y] of [[-1, 10], [10, -1], [100_001, 10], [1e300, 10], [1.5, 10], [Number.MAX_SAFE_INTEGER + 2, 0]]) {
      await refused('device_tap', { lease_id: leaseId, x, y });
    }
    await refused('device_swipe', { lease_id: leaseId, from: { x: -5, y: 0 }, to: { x: 0, y: 0 } });
    await refused('device_swipe', { lease_id: leaseId, from: { x: 0, y: 0 }, to: { x: 0, y: 0 }, ms: -1 });
    await refused('device_swipe', { lease_id: leaseId, from: { x: 0, y: 0 }, to: { x: 0, y: 0 }, ms: 1e9 });
    for (const id of [0, -1, 1.5, 1e20, Number.MAX_SAFE_INTEGER + 2]) {
      await refused('device_lease', { device_id: id });
      await refused('run_get', { run_id: id });
      await refused('run_stop', { run_id: id });
      await refused('macro_get', { macro_id: id });
      await refused('run_start', { device_id: id, macro_id: macroId });
    }
    // The largest id the schemas allow is simply not found, on either engine.
    const max = Number.MAX_SAFE_INTEGER;
    await refused('device_lease', { device_id: max }, 'not_found');
    await refused('run_get', { run_id: max }, 'not_found');
    await refused('run_stop', { run_id: max }, 'not_found');
    // An execution_id is the other accepted form: malformed ones are refused, an unknown one is not found.
    for (const id of ['', 'cr_', 'CR_0123456789abcdef01234567', 'cr_0123456789abcdef0123456', 'cr_0123456789abcdef012345678', '12abc', 'x'.repeat(10_000)]) {
      await refused('run_get', { run_id: id });
      await refused('run_stop', { run_id: id });
    }
    await refused('run_get', { run_id: 'cr_0123456789abcdef01234567' }, 'not_found');
    await refused('run_stop', { run_id: 'cr_0123456789abcdef01234567' }, 'not_found');
    await refused('macro_get', { macro_id: max }, 'not_found');
    await refused('run_start', { device_id: max, macro_id: macroId }, 'not_found');
    await refused('run_start', { device_id: deviceId, macro_id: max }, 'not_found');
    await refused('run_validate', { macro_id: max }, 'not_found');
    await refused('run_logs', { execution_id: 'cr_0123456789abcdef01234567', since_seq: 2_147_483_647 }, 'not_found');
    await refused('run_logs', { execution_id: 'cr_0123456789abcdef01234567', since_seq: max });
  });

  test('unknown, forged, expired and someone else\'s lease ids', async () => {
    const tools: [string, Record<string, unknown>][] = [
      ['device_screenshot', {}], ['device_ui_tree', {}], ['device_read_text', {}], ['device_tap', { x: 1, y: 1 }],
      ['device_swipe', { from: { x: 1, y: 1 }, to: { x: 2, y: 2 } }], ['device_type', { text: 'x' }], ['device_key', { key: 'BACK' }],
      ['app_list', {}], ['app_open', { package: 'com.example.app' }], ['app_close', { package: 'com.example.app' }], ['device_release', {}],
    ];
    const unknown = `lease_${'0'.repeat(24)}`;
    for (const [tool, args] of tools) {
      await refused(tool, { ...args, lease_id: unknown }, 'not_found');
      // Not a lease id at all: SQL-ish, upper-case, too short.
      for (const forged of ["lease_' OR 1=1 --", `LEASE_${'A'.repeat(24)}`, 'lease_abc', `${leaseId} `]) await refused(tool, { ...args, lease_id: forged });
    }

    const theirs = await connect(t.baseUrl, { headers: withKey((await createKey(t.app, stranger, { name: 'theirs' })).key) });
    try {
      for (const [tool, args] of tools) expect(failure(await call(theirs, tool, { ...args, lease_id: leaseId })), tool).toMatchObject({ code: 'not_found' });
    } finally {
      await theirs.close();
    }
    // The owner's lease survived all of it.
    expect((await call(client, 'device_ui_tree', { lease_id: leaseId })).isError).toBeFalsy();

    const expiring = (await createCloudDevice(t.app, owner, { name: 'Expiring' })).id;
    const { lease_id } = data<{ lease_id: string }>(await call(client, 'device_lease', { device_id: expiring, minutes: 1 }));
    t.clock.advance(2 * 60_000);
    for (const [tool, args] of tools) await refused(tool, { ...args, lease_id }, 'not_found');
  });
});
