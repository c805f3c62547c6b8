// Proxy import through the routes: formats, edge cases, refusals and partial imports.
import { describe, expect, test } from 'vitest';
import { createDevice } from '../../helpers/resources.js';
import { createKey, signUp } from '../../helpers/users.js';
import { useProxiesHarness, t, call, ok, addProxy } from './harness.js';

useProxiesHarness();

describe('import', () => {
  test('every line is created or reported with its line, masked raw text and reason', async () => {
    const u = await signUp(t.app);
    const k = (await createKey(t.app, u)).key;
    await addProxy({ host: 'stored.example.com', port: 80, username: 'x', password: 'y' }, k);
    const text = [
      '# my proxies',
      '',
      '1.2.3.4:8080',
      'host.example.com:3128:alice:pa:ss@word',
      'socks5h://bob:p@ss:w@rd@socks.example.com:1080',
      'socks://carol:c@[2001:db8::2]:1080',
      '[2001:db8::1]:8080:dave:d:pw',
      '   ',
      '1.2.3.4:8080',
      'stored.example.com:80:x:other-secret',
      'ftp://user:topsecret@h.example.com:21',
      'h.example.com:99999:eve:evepass',
      'h.example.com:80:eve',
      'h.example.com',
      '2001:db8::3:8080',
      'https://frank:fr@nk@h2.example.com:443/',
    ].join('\n');
    const res = await ok('POST', '/api/proxy/import', { proxies: text }, 200, k);
    expect(res.created_count).toBe(6);
    expect(res.created.map((p: { scheme: string; host: string; port: number; username?: string }) => [p.scheme, p.host, p.port, p.username])).toEqual([
      ['http', '1.2.3.4', 8080, undefined],
      ['http', 'host.example.com', 3128, 'alice'],
      ['socks5', 'socks.example.com', 1080, 'bob'],
      ['socks5', '2001:db8::2', 1080, 'carol'],
      ['http', '2001:db8::1', 8080, 'dave'],
      ['https', 'h2.example.com', 443, 'frank'],
    ]);
    expect(res.errors.map((e: { line: number }) => e.line)).toEqual([9, 10, 11, 12, 13, 14, 15]);
    expect(res.errors[0].reason).toMatch(/duplicates line 3/);
    expect(res.errors[1].reason).toMatch(/stored proxy/);
    expect(res.errors[2]).toMatchObject({ raw: 'ftp://user:********@h.example.com:21' });
    expect(res.errors[3]).toMatchObject({ raw: 'h.example.com:99999:eve:********' });
    expect(res.errors[6].reason).toMatch(/IPv6.*brackets/);
    const body = JSON.stringify(res);
    for (const secret of ['pa:ss@word', 'p@ss:w@rd', 'other-secret', 'topsecret', 'evepass', 'fr@nk', 'd:pw']) expect(body).not.toContain(secret);
    // The passwords kept every ':' and '@': the connection info reveals them as imported.
    const device = await createDevice(t.app, u);
    const alice = res.created[1];
    const assignment = await ok('POST', '/api/proxy/assignments', { proxy_id: alice.id, emulator_device_id: device.id }, 201, k);
    expect((await ok('GET', `/api/proxy/assignments/${assignment.id}/connection-info?include_secrets=true`, undefined, 200, k)).password).toBe('pa:ss@word');
    const bob = res.created[2];
    await ok('POST', '/api/proxy/assignments', { proxy_id: bob.id, emulator_device_id: device.id }, 201, k);
    const [current] = (await ok('GET', `/api/proxy/devices/${device.id}`, undefined, 200, k)).items;
    expect((await ok('GET', `/api/proxy/assignments/${current.id}/connection-info?include_secrets=true`, undefined, 200, k)).password).toBe('p@ss:w@rd');
  });

  test('more than 10,000 lines is refused whole; 10,000 is accepted', async () => {
    const u = await signUp(t.app);
    const k = (await createKey(t.app, u)).key;
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:8080`).join('\n');
    const refused = await call('POST', '/api/proxy/import', { proxies: lines(10_001) }, k);
    expect(refused.statusCode).toBe(422);
    expect((await ok('GET', '/api/proxy', undefined, 200, k)).total_rows).toBe(0);
    const accepted = await ok('POST', '/api/proxy/import', { proxies: lines(10_000) }, 200, k);
    expect([accepted.created_count, accepted.error_count]).toEqual([10_000, 0]);
  }, 60_000);

  test('bad bodies are 422 and store nothing', async () => {
    expect((await call('POST', '/api/proxy/import', { proxies: 5 })).statusCode).toBe(422);
    expect((await call('POST', '/api/proxy/import', {})).statusCode).toBe(422);
  });
});
