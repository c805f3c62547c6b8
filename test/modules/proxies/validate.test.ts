// Proxy checks through real proxies on 127.0.0.1: HTTP CONNECT with authentication
// (proxy-chain), SOCKS5 with username and password, a silent server and a closed port.
// The private-address rule is lifted here by its operator setting, except where refused.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { closedPort, type Running, startEchoServer, startHttpProxy, startSilentServer, startSocksProxy } from '../../helpers/proxy-servers.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';

const PASSWORD = 'p:a@ss#1';
let t: TestApp;
let user: SignedUpUser;
let key: string;
let echo: Running;
let http: Running & { usernames: string[] };
let socks: Running;
let silent: Running;

beforeAll(async () => {
  echo = await startEchoServer();
  http = await startHttpProxy((username, password) => username.startsWith('alice') && password === PASSWORD);
  socks = await startSocksProxy('bob', PASSWORD);
  silent = await startSilentServer();
  t = await createTestApp({
    env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', PROXY_CHECK_URL: `http://127.0.0.1:${echo.port}/`, PROXY_CHECK_TIMEOUT_MS: '1000' },
    geolocator: { locate: (ip) => ({ country: ip === '127.0.0.1' ? 'ZZ' : null, city: null, asn: null }) },
  });
  user = await signUp(t.app);
  key = (await createKey(t.app, user)).key;
});
afterAll(async () => {
  await t?.close();
  await Promise.all([echo, http, socks, silent].map((s) => s?.close()));
});

async function addProxy(body: object) {
  const res = await t.app.inject({ method: 'POST', url: '/api/proxy', headers: withKey(key), payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function validate(id: number) {
  const res = await t.app.inject({ method: 'POST', url: `/api/proxy/${id}/validate`, headers: withKey(key) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('validation through a real proxy', () => {
  test('HTTP CONNECT with credentials: live, exit IP, country of the exit, latency; stored on the proxy', async () => {
    const proxy = await addProxy({ host: '127.0.0.1', port: http.port, username: 'alice', password: PASSWORD });
    expect(proxy.status).toBe('unchecked');
    const result = await validate(proxy.id);
    expect(result).toMatchObject({ proxy_id: proxy.id, status: 'live', reachable: true, exit_ip: '127.0.0.1', country: 'ZZ' });
    expect(result.latency_ms).toBeGreaterThanOrEqual(0);
    expect(result.error).toBeUndefined();
    const stored = (await t.app.inject({ url: `/api/proxy/${proxy.id}`, headers: withKey(key) })).json();
    expect(stored).toMatchObject({ status: 'live', last_exit_ip: '127.0.0.1', last_exit_country: 'ZZ', last_latency_ms: result.latency_ms });
    expect(stored.last_check_at).toBe(new Date(t.clock.now()).toISOString());
  });

  test('SOCKS5 with username and password: live', async () => {
    const proxy = await addProxy({ scheme: 'socks5', host: '127.0.0.1', port: socks.port, username: 'bob', password: PASSWORD });
    expect(await validate(proxy.id)).toMatchObject({ status: 'live', reachable: true, exit_ip: '127.0.0.1' });
  });

  test('wrong credentials: auth_failed on HTTP (407) and on SOCKS5, and the proxy is dead', async () => {
    const h = await addProxy({ host: '127.0.0.1', port: http.port, username: 'mallory', password: 'nope' });
    expect(await validate(h.id)).toMatchObject({ status: 'dead', reachable: false, error: 'auth_failed' });
    const s = await addProxy({ scheme: 'socks5', host: '127.0.0.1', port: socks.port, username: 'bobby', password: 'wrong' });
    expect(await validate(s.id)).toMatchObject({ status: 'dead', reachable: false, error: 'auth_failed' });
    const stored = (await t.app.inject({ url: `/api/proxy/${s.id}`, headers: withKey(key) })).json();
    expect(stored).toMatchObject({ status: 'dead', last_error: 'auth_failed' });
    expect(stored.last_exit_ip).toBeUndefined();
  });

  test('nothing listening: unreachable, on both protocols', async () => {
    const port = await closedPort();
    const h = await addProxy({ host: '127.0.0.1', port });
    expect(await validate(h.id)).toMatchObject({ status: 'dead', error: 'unreachable' });
    const s = await addProxy({ scheme: 'socks5', host: '127.0.0.1', port, username: 'u', password: 'p' });
    expect(await validate(s.id)).toMatchObject({ status: 'dead', error: 'unreachable' });
  });

  test('a proxy that never answers: timeout, on both protocols', async () => {
    const h = await addProxy({ host: '127.0.0.1', port: silent.port, username: 'u', password: 'p' });
    expect(await validate(h.id)).toMatchObject({ status: 'dead', error: 'timeout' });
    const s = await addProxy({ scheme: 'socks5', host: '127.0.0.1', port: silent.port, username: 'u2', password: 'p' });
    expect(await validate(s.id)).toMatchObject({ status: 'dead', error: 'timeout' });
  });

  test('a live proxy that goes away becomes dead', async () => {
    const extra = await startHttpProxy(() => true);
    const proxy = await addProxy({ host: '127.0.0.1', port: extra.port, label: 'short-lived' });
    expect((await validate(proxy.id)).status).toBe('live');
    await extra.close();
    expect(await validate(proxy.id)).toMatchObject({ status: 'dead', error: 'unreachable' });
  });

  test('a gateway whose exit breaks targeting it cannot express is retried with fresh sessions, then flagged', async () => {
    const before = http.usernames.length;
    const proxy = await addProxy({ host: '127.0.0.1', port: http.port, username: 'alice-zone', password: PASSWORD, gateway: 'brightdata', target_countries: ['US', 'DE'] });
    expect(await validate(proxy.id)).toMatchObject({ status: 'live', error: 'targeting_mismatch', country: 'ZZ' });
    const seen = http.usernames.slice(before);
    expect(seen).toHaveLength(3);
    for (const name of seen) expect(name).toMatch(/^alice-zone-session-[a-z0-9]{8}$/);
    expect(new Set(seen).size).toBe(3);
  });

  test("the password never reaches a log line", () => {
    expect(t.logs.join('\n')).not.toContain(PASSWORD);
  });
});

describe('the private-address rule (setting off)', () => {
  let strict: TestApp;
  let strictKey: string;
  beforeAll(async () => {
    strict = await createTestApp({ env: { PROXY_CHECK_URL: `http://127.0.0.1:${echo.port}/` } });
    const u = await signUp(strict.app);
    strictKey = (await createKey(strict.app, u)).key;
  });
  afterAll(() => strict?.close());

  test('a proxy on a private or loopback address is refused before any connection, and its state is unchanged', async () => {
    const before = http.usernames.length;
    for (const host of ['127.0.0.1', '10.1.2.3', '169.254.169.254', 'localhost', '[::1]']) {
      const created = await strict.app.inject({ method: 'POST', url: '/api/proxy', headers: withKey(strictKey), payload: { host, port: http.port, username: 'alice', password: PASSWORD } });
      expect(created.statusCode, created.body).toBe(201);
      const res = await strict.app.inject({ method: 'POST', url: `/api/proxy/${created.json().id}/validate`, headers: withKey(strictKey) });
      expect([host, res.statusCode, res.json().details.code]).toEqual([host, 422, 'address_not_allowed']);
      const stored = (await strict.app.inject({ url: `/api/proxy/${created.json().id}`, headers: withKey(strictKey) })).json();
      expect(stored.status).toBe('unchecked');
    }
    expect(http.usernames.length).toBe(before);
  });
});
