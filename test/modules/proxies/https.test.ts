// Validation through an `https` proxy: TLS to the proxy itself, then CONNECT inside it. The
// proxy is a real proxy-chain server on 127.0.0.1 with a certificate from a test CA.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LiveProxyChecker } from '../../../src/modules/proxies/checker.js';
import { type Running, startEchoServer, startHttpsProxy } from '../../helpers/proxy-servers.js';
import { makeTestCa, type TestCa } from '../../helpers/webhooks.js';

let ca: TestCa;
let echo: Running;
let proxy: Running;
beforeAll(async () => {
  ca = makeTestCa();
  echo = await startEchoServer();
  proxy = await startHttpsProxy(ca, (username, password) => username === 'alice' && password === 'p@ss:word');
});
afterAll(async () => {
  await proxy?.close();
  await echo?.close();
  ca?.dispose();
});

const target = (password: string) => ({ scheme: 'https' as const, host: 'localhost', address: '127.0.0.1', port: proxy.port, username: 'alice', password });

describe('an https proxy', () => {
  test('with the right credentials: live, with the exit IP the echo service saw', async () => {
    const checker = new LiveProxyChecker(`http://127.0.0.1:${echo.port}/`, 5000, { ca: ca.caPem });
    const outcome = await checker.check(target('p@ss:word'));
    expect(outcome).toMatchObject({ reachable: true, exitIp: '127.0.0.1' });
  });

  test('with wrong credentials: auth_failed', async () => {
    const checker = new LiveProxyChecker(`http://127.0.0.1:${echo.port}/`, 5000, { ca: ca.caPem });
    expect(await checker.check(target('wrong'))).toEqual({ reachable: false, error: 'auth_failed' });
  });

  test('whose certificate is not trusted: not reachable (TLS is verified, never skipped)', async () => {
    const checker = new LiveProxyChecker(`http://127.0.0.1:${echo.port}/`, 5000);
    expect(await checker.check(target('p@ss:word'))).toEqual({ reachable: false, error: 'unreachable' });
  });
});
