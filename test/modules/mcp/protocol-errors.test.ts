// Malformed JSON-RPC to /mcp, through real HTTP (issue 29, defect 6): a message that is not
// JSON-RPC 2.0 answers -32600 Invalid Request (not -32700, which is for JSON that does not
// parse), and a request whose params break its method's schema (a malformed initialize)
// answers -32602 Invalid params with a sentence naming the fields, not -32603 with the
// validator's raw output. Well-formed messages are answered as before.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createKey, signUp } from '../../helpers/users.js';
import { listeningApp } from './helpers/client.js';

let t: Awaited<ReturnType<typeof listeningApp>>;
let key: string;

beforeAll(async () => {
  t = await listeningApp({ workers: false });
  key = (await createKey(t.app, await signUp(t.app), { name: 'protocol' })).key;
});
afterAll(async () => t.close());

interface RpcError {
  code: number;
  message: string;
  data?: { errors: { path: string; message: string }[] };
}

type Answer = { id?: unknown; error?: RpcError; result?: unknown };

async function post(body: unknown, raw = false): Promise<{ status: number; body: Answer }> {
  const res = await fetch(`${t.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: raw ? (body as string) : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

const INIT_PARAMS = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } };

/** The error is readable: no JSON dump of validator issues, no stack. */
function expectReadable(error: RpcError | undefined) {
  expect(error?.message).toBeTypeOf('string');
  expect(error?.message).not.toMatch(/[[{]\s*"(expected|code)"|\n|invalid_type|at \w+ \(/);
  expect(error?.message.length).toBeLessThan(600);
}

describe('a message that is not JSON-RPC 2.0 is -32600 Invalid Request', () => {
  test.each([
    ['params a string', { jsonrpc: '2.0', id: 1, method: 'initialize', params: 'x' }, /"params" must be an object/],
    ['params an array', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [1] }, /"params" must be an object/],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'initialize', params: INIT_PARAMS }, /"jsonrpc" must be "2.0"/],
    ['no jsonrpc', { id: 1, method: 'ping' }, /"jsonrpc" must be "2.0"/],
    ['method a number', { jsonrpc: '2.0', id: 1, method: 7 }, /"method" must be a string/],
    ['id an object', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, /"id" must be a string or an integer/],
    ['an unknown member', { jsonrpc: '2.0', id: 1, method: 'ping', extra: true }, /"extra" is not a member/],
    ['neither method nor id', { jsonrpc: '2.0', params: {} }, /needs a "method"/],
    ['a batch holding a number', [42], /message 1 of the batch .*a JSON object/],
  ])('%s', async (_name, body, why) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe(-32600);
    expect(res.body.error?.message).toMatch(/^Invalid Request: /);
    expect(res.body.error?.message).toMatch(why);
    expectReadable(res.body.error);
  });

  test('the id is echoed when it is one, null when it is not', async () => {
    expect((await post({ jsonrpc: '2.0', id: 'a-7', method: 'initialize', params: 'x' })).body.id).toBe('a-7');
    expect((await post({ jsonrpc: '2.0', id: [1], method: 'ping' })).body.id).toBeNull();
  });

  test('a batch names the message at fault', async () => {
    const res = await post([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'initialize', params: 'x' }]);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32600, message: expect.stringMatching(/message 2 of the batch/) });
  });

  test('JSON that does not parse is still refused as such, not as JSON-RPC', async () => {
    const res = await post('{"jsonrpc": "2.0", ', true);
    expect(res.status).toBe(400);
    expect(res.body.error).toBeUndefined();
  });
});

describe('a request whose params break its method is -32602 Invalid params', () => {
  test.each([
    ['no params', undefined, ['params must be an object and is missing']],
    ['empty params', {}, ['params.protocolVersion must be a string and is missing', 'params.capabilities must be an object and is missing', 'params.clientInfo must be an object and is missing']],
    ['protocolVersion a number', { ...INIT_PARAMS, protocolVersion: 5 }, ['params.protocolVersion must be a string']],
    ['clientInfo without a name', { ...INIT_PARAMS, clientInfo: { version: '1' } }, ['params.clientInfo.name must be a string and is missing']],
  ])('initialize with %s', async (_name, params, fields) => {
    const res = await post({ jsonrpc: '2.0', id: 9, method: 'initialize', ...(params === undefined ? {} : { params }) });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(9);
    expect(res.body.error?.code).toBe(-32602);
    expect(res.body.error?.message).toMatch(/^Invalid params for initialize: /);
    for (const field of fields) expect(res.body.error?.message).toContain(field);
    expect(res.body.error?.message).toContain('"protocolVersion": "2025-11-25"');
    expect(res.body.error?.data?.errors.map((e) => `${e.path} ${e.message}`)).toEqual(fields);
    expectReadable(res.body.error);
  });

  test('tools/list with a cursor that is not a string', async () => {
    const res = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 5 } });
    expect(res.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('params.cursor must be a string') });
  });

  test('a _meta that is not an object, on any method', async () => {
    const res = await post({ jsonrpc: '2.0', id: 4, method: 'resources/list', params: { _meta: 'x' } });
    expect(res.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('params._meta') });
  });

  test('a bad params beside good messages in a batch: each answered on its own', async () => {
    const res = await post([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, { jsonrpc: '2.0', id: 2, method: 'ping' }]);
    expect(res.status).toBe(200);
    const byId = new Map((res.body as unknown as Answer[]).map((m) => [m.id, m]));
    expect(byId.get(1)?.error?.code).toBe(-32602);
    expect(byId.get(2)?.result).toEqual({});
  });
});

describe('well-formed messages are answered as before', () => {
  test('initialize, ping, an unknown method', async () => {
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT_PARAMS });
    expect(init.status).toBe(200);
    expect(init.body.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'automation-service' } });
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'ping' })).body.result).toEqual({});
    expect((await post({ jsonrpc: '2.0', id: 3, method: 'nope/never', params: {} })).body.error?.code).toBe(-32601);
  });

  test('a tools/call with a bad name is still an error result (decisions.md §12)', async () => {
    const res = await post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 42 } });
    expect(res.body.result).toMatchObject({ isError: true, _meta: { code: 'validation_failed' } });
  });
});
