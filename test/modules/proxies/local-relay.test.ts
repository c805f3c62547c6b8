// The local relay of the relay recipe (src/modules/proxies/local-relay.ts) on its own: it
// forwards to an upstream with credentials (anonymizeProxy) and to one without (proxy-chain's
// Server, as anonymizeProxy would hand such an upstream back unchanged), closes its port, and
// its errors never quote the upstream's password.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openLocalRelay } from '../../../src/modules/proxies/local-relay.js';
import { closedPort, listening, type Running, startEchoServer, startHttpProxy, viaProxy } from '../../helpers/proxy-servers.js';

const PASSWORD = 'pa:ss@w/rd';
let echo: Running;
let upstream: Running & { usernames: string[] };
beforeAll(async () => {
  echo = await startEchoServer();
  upstream = await startHttpProxy((username, password) => username === '' || (username === 'bob' && password === PASSWORD));
});
afterAll(async () => {
  await Promise.all([echo.close(), upstream.close()]);
});

test('with and without credentials, the relay forwards without asking for any, and its port closes with it', async () => {
  for (const auth of [`bob:${encodeURIComponent(PASSWORD)}@`, '']) {
    const port = await closedPort();
    const relay = await openLocalRelay(`http://${auth}127.0.0.1:${upstream.port}`, port);
    expect(relay).toMatchObject({ url: `http://127.0.0.1:${port}`, port });
    const seen = upstream.usernames.length;
    expect(await viaProxy(port, `http://127.0.0.1:${echo.port}/`)).toEqual({ status: 200, body: '{"ip":"127.0.0.1"}' });
    expect(upstream.usernames.slice(seen)).toEqual([auth ? 'bob' : '']);
    await relay.close();
    expect(await listening(port)).toBe(false);
  }
});

test('errors say what went wrong without the password', async () => {
  const port = await closedPort();
  const first = await openLocalRelay(`http://bob:${encodeURIComponent(PASSWORD)}@127.0.0.1:${upstream.port}`, port);
  try {
    await expect(openLocalRelay(`http://bob:${encodeURIComponent(PASSWORD)}@127.0.0.1:${upstream.port}`, port)).rejects.toThrow(`port ${port} on 127.0.0.1 is already in use`);
  } finally {
    await first.close();
  }
  const refused = await openLocalRelay(`ftp://bob:${encodeURIComponent(PASSWORD)}@127.0.0.1:21`, port).then(
    () => null,
    (error: Error) => error.message,
  );
  expect(refused).toMatch(/protocol/);
  expect(refused).not.toContain(PASSWORD);
  expect(refused).not.toContain(encodeURIComponent(PASSWORD));
});
