// The client-credentials extension: the discovery documents, the SDK's own
// ClientCredentialsProvider finding the token endpoint through them after a 401, and the
// token endpoint's answers and RFC 6749 errors.
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createKey, signUp, type SignedUpUser } from '../../helpers/users.js';
import { call, connect, data, failure, listeningApp } from './helpers/client.js';

let t: Awaited<ReturnType<typeof listeningApp>>;
let user: SignedUpUser;
let full: { key: string; id: number };
let devicesOnly: { key: string; id: number };

beforeAll(async () => {
  t = await listeningApp();
  user = await signUp(t.app);
  full = await createKey(t.app, user, { name: 'full' });
  devicesOnly = await createKey(t.app, user, { name: 'devices', scopes: ['devices:control'] });
});
afterAll(() => t.close());

const TOKEN = () => `${t.baseUrl}/api/mcp/oauth/token`;
const prefix = (key: string) => key.slice(0, 12);
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(TOKEN(), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });

describe('discovery', () => {
  test.each(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])('%s (RFC 9728)', async (path) => {
    const res = await fetch(`${t.baseUrl}${path}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      resource: `${t.baseUrl}/mcp`,
      authorization_servers: [t.baseUrl],
      scopes_supported: ['devices:control', 'macros:run', 'macros:author', 'maps:read', 'runs:read'],
      bearer_methods_supported: ['header'],
    });
  });

  test('/.well-known/oauth-authorization-server (RFC 8414)', async () => {
    const res = await fetch(`${t.baseUrl}/.well-known/oauth-authorization-server`);
    expect(await res.json()).toMatchObject({
      issuer: t.baseUrl,
      token_endpoint: TOKEN(),
      authorization_endpoint: `${t.baseUrl}/api/mcp/oauth/authorize`,
      response_types_supported: ['code'],
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
  });

  test('the authorization endpoint answers unsupported_response_type', async () => {
    const res = await fetch(`${t.baseUrl}/api/mcp/oauth/authorize?response_type=code&client_id=x`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'unsupported_response_type' });
  });
});

describe("the SDK's ClientCredentialsProvider", () => {
  test('follows the 401 to the discovery documents, gets a token and calls tools with it', async () => {
    const provider = new ClientCredentialsProvider({ clientId: prefix(full.key), clientSecret: full.key, expectedIssuer: t.baseUrl });
    const client = await connect(t.baseUrl, { authProvider: provider });
    const tokens = provider.tokens();
    expect(tokens?.access_token).toMatch(/^mcpt_/);
    expect(tokens?.token_type).toBe('Bearer');
    expect(tokens?.scope).toBe('devices:control macros:run macros:author maps:read runs:read');
    expect(data(await call(client, 'macro_list'))).toEqual({ items: [] });
    await client.close();
  });

  test('a narrowed scope shows only its tools', async () => {
    const provider = new ClientCredentialsProvider({ clientId: prefix(full.key), clientSecret: full.key, expectedIssuer: t.baseUrl, scope: 'macros:run' });
    const client = await connect(t.baseUrl, { authProvider: provider });
    expect(provider.tokens()?.scope).toBe('macros:run');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('macro_list');
    expect(names).not.toContain('device_list');
    expect(failure(await call(client, 'device_list'))).toMatchObject({ code: 'insufficient_scope', text: expect.stringContaining('devices:control') });
    await client.close();
  });
});

describe('the token endpoint', () => {
  test('form-encoded with client_secret_post: the grant, no-store', async () => {
    const res = await form({ grant_type: 'client_credentials', client_id: prefix(full.key), client_secret: full.key, scope: 'runs:read macros:run' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'runs:read macros:run' });
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
  });

  test('HTTP Basic; a scoped key without scope gets its own scopes', async () => {
    const res = await form({ grant_type: 'client_credentials' }, { authorization: basic(prefix(devicesOnly.key), devicesOnly.key) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ scope: 'devices:control' });
  });

  test('the token is stored only as its hash', async () => {
    const res = await form({ grant_type: 'client_credentials', client_secret: full.key });
    const { access_token: token } = (await res.json()) as { access_token: string };
    const rows = await t.db.kysely.selectFrom('mcp_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.some((row) => row.key_id === full.id)).toBe(true);
  });

  test('invalid_client with Basic: 401 and WWW-Authenticate: Basic', async () => {
    const res = await form({ grant_type: 'client_credentials' }, { authorization: basic('svc_00000000', `svc_${'0'.repeat(48)}`) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({ error: 'invalid_client', error_description: expect.any(String) });
  });

  test.each<[string, Record<string, string>]>([
    ['no secret', { grant_type: 'client_credentials' }],
    ['a secret that is no key', { grant_type: 'client_credentials', client_secret: 'hunter2' }],
    ['a client_id that is not the key prefix', { grant_type: 'client_credentials', client_id: 'svc_ffffffff', client_secret: 'KEY' }],
  ])('invalid_client in the body (%s): 401 without a Basic challenge', async (_name, fields) => {
    const res = await form({ ...fields, ...(fields.client_secret === 'KEY' ? { client_secret: full.key } : {}) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });

  test('a revoked key is an invalid client', async () => {
    const gone = await createKey(t.app, user, { name: 'gone' });
    await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${gone.id}`, headers: user.auth });
    const res = await form({ grant_type: 'client_credentials', client_secret: gone.key });
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });

  test.each([
    ['a scope the key lacks', () => devicesOnly.key, 'macros:run'],
    ['an unknown scope', () => full.key, 'admin'],
  ])('invalid_scope: %s', async (_name, secret, scope) => {
    const res = await form({ grant_type: 'client_credentials', client_secret: secret(), scope });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_scope' });
  });

  test('unsupported_grant_type, and invalid_request without grant_type (JSON body)', async () => {
    const json = (body: object) => fetch(TOKEN(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const wrong = await json({ grant_type: 'password', client_secret: full.key });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'unsupported_grant_type' });
    const none = await json({ client_secret: full.key });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ error: 'invalid_request' });
  });

  test('a resource other than the tool server: invalid_target', async () => {
    const res = await form({ grant_type: 'client_credentials', client_secret: full.key, resource: 'https://elsewhere.example/mcp' });
    expect(await res.json()).toMatchObject({ error: 'invalid_target' });
    const ok = await form({ grant_type: 'client_credentials', client_secret: full.key, resource: `${t.baseUrl}/mcp` });
    expect(ok.status).toBe(200);
  });
});
