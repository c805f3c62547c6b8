// The tool server validates `Origin` (issue 29, defect 7; MCP 2025-11-25, basic/transports,
// "Security Warning": DNS rebinding). A request whose Origin is neither BASE_URL's nor one of
// MCP_ALLOWED_ORIGINS answers 403 `origin_not_allowed` before anything else (no credential
// check, no rate-limit count, no JSON-RPC); without Origin (scripts, SDK clients) nothing
// changes. Through real HTTP, with the SDK client for the no-Origin case.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';
import { call, connect, data, listeningApp } from './helpers/client.js';

let t: Awaited<ReturnType<typeof listeningApp>>;
let key: string;

beforeAll(async () => {
  t = await listeningApp({ workers: false, env: { MCP_ALLOWED_ORIGINS: 'http://localhost:6274, https://Inspector.Example.com' } });
  key = (await createKey(t.app, await signUp(t.app), { name: 'origin' })).key;
});
afterAll(async () => t.close());

const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

async function ping(headers: Record<string, string>) {
  const res = await fetch(`${t.baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: PING });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

describe('an Origin that is not allowed is refused with 403', () => {
  test.each([
    ['another site', 'http://evil.example.com'],
    ["BASE_URL's host on another port", 'http://127.0.0.1:1'],
    ["BASE_URL's host over https", () => t.baseUrl.replace('http:', 'https:')],
    ['a listed host with another scheme', 'https://localhost:6274'],
    ['the opaque origin of a sandboxed page or a file', 'null'],
    ['not an origin at all', 'evil'],
  ])('%s', async (_name, origin) => {
    const value = typeof origin === 'function' ? origin() : origin;
    const res = await ping({ ...withKey(key), origin: value });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ details: { code: 'origin_not_allowed' } });
    expect(res.body.message).toMatch(/MCP_ALLOWED_ORIGINS/);
    expect(res.body).not.toHaveProperty('jsonrpc');
  });

  test('before the credential check and the rate limit: 403, not 401, and no rate-limit headers', async () => {
    const anonymous = await ping({ origin: 'http://evil.example.com' });
    expect(anonymous.status).toBe(403);
    const keyed = await ping({ ...withKey(key), origin: 'http://evil.example.com' });
    expect(keyed.headers.get('x-ratelimit-limit')).toBeNull();
    expect((await ping({ ...withKey(key) })).headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  test('a DNS-rebinding request (Host and Origin both the attacker\'s) is refused', async () => {
    // fetch cannot set Host; node:http can, as the conformance suite's check does.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${t.baseUrl}/mcp`, { method: 'POST', headers: { host: 'evil.example.com', origin: 'http://evil.example.com', 'content-type': 'application/json', ...withKey(key) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(PING);
    });
    expect(status).toBe(403);
  });
});

describe('allowed origins and requests without Origin are answered', () => {
  test.each([
    ["BASE_URL's own origin", () => t.baseUrl],
    ['a listed origin', () => 'http://localhost:6274'],
    ['a listed origin written with a default port and in capitals', () => 'https://INSPECTOR.example.com:443'],
  ])('%s', async (_name, origin) => {
    const res = await ping({ ...withKey(key), origin: origin() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: {} });
  });

  test('no Origin: the SDK client connects, lists and calls as before', async () => {
    const client = await connect(t.baseUrl, { headers: withKey(key) });
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      expect(data(await call(client, 'device_list'))).toEqual({ items: [] });
    } finally {
      await client.close();
    }
  });

  test('without a key an allowed origin still gets the 401 and its challenge', async () => {
    const res = await ping({ origin: t.baseUrl });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/resource_metadata=/);
  });
});

describe('MCP_ALLOWED_ORIGINS', () => {
  test('read as serialised origins; empty by default', () => {
    expect(loadConfig({}).mcpAllowedOrigins).toEqual([]);
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: ' http://localhost:6274 ,HTTPS://App.Example.com:443/, http://localhost:6274' }).mcpAllowedOrigins).toEqual([
      'http://localhost:6274',
      'https://app.example.com',
    ]);
  });

  test.each(['localhost:6274', 'http://localhost:6274/inspector', 'ftp://example.com', 'http://user:pw@example.com', '*', 'http://a.example.com?x=1', 'http://a.example.com,,http://b.example.com'])(
    '%j is refused, naming the setting',
    (value) => {
      expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: value })).toThrow('MCP_ALLOWED_ORIGINS');
    },
  );
});
