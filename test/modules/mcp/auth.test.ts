// The tool server's door: the three ways to send a credential, with the SDK's own client over
// a real socket; the 401 that points at discovery; the key gate's 429 and 402 on /mcp (a tool
// call counts as one request, each call in a batch as one more); 405 for GET and DELETE.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createKey, signUp, type SignedUpUser } from '../../helpers/users.js';
import { call, connect, data, listeningApp } from './helpers/client.js';

const ADMIN = 'admin-token-for-mcp-tests-0123456789';
let t: Awaited<ReturnType<typeof listeningApp>>;
let user: SignedUpUser;
let key: string;

beforeAll(async () => {
  t = await listeningApp({ env: { ADMIN_TOKEN: ADMIN, RATE_LIMIT_PER_KEY: '1000' } });
  user = await signUp(t.app);
  ({ key } = await createKey(t.app, user));
});
afterAll(() => t.close());

const JSON_RPC = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
/**
 * POST /mcp with the answer read in full: an answer left unread (a tools/list is larger than
 * the socket's buffers) keeps the server's response unfinished, and the app's close waits for it.
 */
async function post(headers: Record<string, string>, body: unknown = LIST): Promise<Response> {
  const res = await fetch(`${t.baseUrl}/mcp`, { method: 'POST', headers: { ...JSON_RPC, ...headers }, body: JSON.stringify(body) });
  return new Response(await res.arrayBuffer(), { status: res.status, headers: res.headers });
}

async function mint(secret: string, extra: Record<string, string> = {}) {
  const res = await fetch(`${t.baseUrl}/api/mcp/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_secret: secret, ...extra }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('sending the credential', () => {
  test.each([
    ['X-API-KEY', () => ({ 'x-api-key': key })],
    ['Authorization: Bearer <key>', () => ({ authorization: `Bearer ${key}` })],
  ])('%s: the SDK client lists and calls tools', async (_name, headers) => {
    const client = await connect(t.baseUrl, { headers: headers() });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['device_list', 'device_lease', 'macro_list', 'run_logs', 'run_validate']));
    expect(data(await call(client, 'macro_list'))).toEqual({ items: [] });
    await client.close();
  });

  test('answers are JSON, so an Accept that admits JSON (or none at all) is enough; one that admits no JSON is 406', async () => {
    for (const accept of ['application/json', '*/*', '']) {
      const res = await post({ 'x-api-key': key, accept });
      expect(res.status, accept).toBe(200);
      expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    }
    const refused = await post({ 'x-api-key': key, accept: 'text/html' });
    expect(refused.status).toBe(406);
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });

  test('Authorization: Bearer <token> from the token endpoint', async () => {
    const token = await mint(key);
    expect(token).toMatch(/^mcpt_[0-9a-f]{64}$/);
    const client = await connect(t.baseUrl, { headers: { authorization: `Bearer ${token}` } });
    expect(data(await call(client, 'device_list'))).toEqual({ items: [] });
    await client.close();
  });

  test('a token stops with its key; a key that is revoked stops at once', async () => {
    const other = await createKey(t.app, user, { name: 'short-lived' });
    const token = await mint(other.key);
    expect((await post({ authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${other.id}`, headers: user.auth })).statusCode).toBe(200);
    for (const headers of [{ authorization: `Bearer ${token}` }, { 'x-api-key': other.key }] as Record<string, string>[]) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { details: { code: string } }).details.code).toBe('invalid_api_key');
    }
  });

  test('a token expires after an hour', async () => {
    const token = await mint(key);
    expect((await post({ authorization: `Bearer ${token}` })).status).toBe(200);
    t.clock.advance(3600_000);
    const res = await post({ authorization: `Bearer ${token}` });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toMatch(/token is unknown or expired/);
  });
});

describe('401', () => {
  const metadata = () => `Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource/mcp"`;

  test('no credential: missing_api_key, with WWW-Authenticate pointing at the discovery document', async () => {
    const res = await post({});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(metadata());
    expect(await res.json()).toMatchObject({ details: { code: 'missing_api_key' } });
  });

  test.each([
    ['an unknown key', { 'x-api-key': `svc_${'0'.repeat(48)}` }],
    ['an unknown key as bearer', { authorization: `Bearer svc_${'0'.repeat(48)}` }],
    ['an unknown token', { authorization: `Bearer mcpt_${'0'.repeat(64)}` }],
    ['a session token', { authorization: 'Bearer sess_abc' }],
    ['not a bearer', { authorization: 'Basic Zm9vOmJhcg==' }],
  ])('%s: invalid_api_key with error="invalid_token"', async (_name, headers) => {
    const res = await post(headers);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`${metadata()}, error="invalid_token"`);
    expect(await res.json()).toMatchObject({ details: { code: 'invalid_api_key' } });
  });

  test('the SDK client without credentials fails to connect', async () => {
    await expect(connect(t.baseUrl, {})).rejects.toThrow();
  });
});

describe('the rest of the key gate', () => {
  test('402 for a lapsed plan, for a key and for a token minted from it', async () => {
    const lapsed = await signUp(t.app);
    const { key: lapsedKey } = await createKey(t.app, lapsed);
    const token = await mint(lapsedKey);
    await t.app.inject({ method: 'PUT', url: `/admin/users/${lapsed.id}/subscription`, headers: { authorization: `Bearer ${ADMIN}` }, payload: { status: 'inactive' } });
    for (const headers of [{ 'x-api-key': lapsedKey }, { authorization: `Bearer ${token}` }] as Record<string, string>[]) {
      const res = await post(headers);
      expect(res.status).toBe(402);
      expect(await res.json()).toMatchObject({ details: { code: 'subscription_required' } });
    }
  });
});

describe('429: each tool call counts as one request', () => {
  test('the per-key window counts every POST, and every further tool call in a batch', async () => {
    const limited = await listeningApp({ env: { RATE_LIMIT_PER_KEY: '6' }, workers: false });
    try {
      const owner = await signUp(limited.app);
      const { key: k } = await createKey(limited.app, owner);
      const send = (body: unknown) =>
        fetch(`${limited.baseUrl}/mcp`, { method: 'POST', headers: { ...JSON_RPC, 'x-api-key': k, 'mcp-protocol-version': '2025-03-26' }, body: JSON.stringify(body) });
      const callMsg = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'macro_list', arguments: {} } });
      const one = await send(callMsg(1));
      expect(one.status).toBe(200);
      expect(one.headers.get('x-ratelimit-remaining')).toBe('5');
      // A batch of three tool calls: 3 more, so 2 remain.
      const batch = await send([callMsg(2), callMsg(3), callMsg(4)]);
      expect(batch.status).toBe(200);
      expect(((await batch.json()) as unknown[]).length).toBe(3);
      expect((await send(callMsg(5))).status).toBe(200);
      expect((await send(callMsg(6))).status).toBe(200);
      const over = await send(callMsg(7));
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBeTruthy();
      expect(await over.json()).toMatchObject({ details: { code: 'rate_limit_exceeded' } });
    } finally {
      await limited.close();
    }
  });
});

describe('GET and DELETE /mcp', () => {
  test.each(['GET', 'DELETE'])('%s answers 405 in the envelope with Allow: POST', async (method) => {
    const res = await fetch(`${t.baseUrl}/mcp`, { method, headers: { 'x-api-key': key, accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toMatchObject({ details: { code: 'method_not_allowed' } });
  });
});
