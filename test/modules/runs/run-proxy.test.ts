// A run on a device with an assigned proxy (decisions.md §10): the exit IP and its country,
// checked through the proxy at launch, are recorded on the run's history record, and the
// macro's own traffic goes through the proxy: HTTP_PROXY, HTTPS_PROXY and ALL_PROXY point at
// the sandbox's egress proxy, which chains to the assigned one, so its credentials never enter
// the run. The proxy and the IP-echo service are small real servers on 127.0.0.1; the macro
// names the echo service `echo.test`, which only the test proxy resolves (to 127.0.0.1).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Running, startEchoServer, startHttpProxy } from '../../helpers/proxy-servers.js';
import { createKey, withKey } from '../../helpers/users.js';
import { cloudDevice, type CloudWorld, cloudWorld, codeMacro, ended, logLines, startRun } from './helpers/cloud-world.js';
import { removeTempDirs } from './helpers/runner.js';

const PASSWORD = 'p:ss@word';
let w: CloudWorld;
let echo: Running;
let proxy: Running & { usernames: string[] };
beforeAll(async () => {
  echo = await startEchoServer();
  proxy = await startHttpProxy((username, password) => username === 'alice' && password === PASSWORD);
  w = await cloudWorld({
    env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', PROXY_CHECK_URL: `http://127.0.0.1:${echo.port}/`, PROXY_CHECK_TIMEOUT_MS: '2000' },
    geolocator: { locate: (ip) => ({ country: ip === '127.0.0.1' ? 'ZZ' : null, city: null, asn: null }) },
  });
  w.worker();
});
afterAll(async () => {
  await w.close();
  await Promise.all([echo, proxy].map((s) => s.close()));
  removeTempDirs();
});

test('the exit is checked at launch and recorded; the macro’s own requests go through the proxy', async () => {
  const full = withKey((await createKey(w.t.app, w.user)).key);
  const added = await w.t.app.inject({ method: 'POST', url: '/api/proxy', headers: full, payload: { host: '127.0.0.1', port: proxy.port, username: 'alice', password: PASSWORD } });
  expect(added.statusCode, added.body).toBe(201);
  const deviceId = await cloudDevice(w);
  const assigned = await w.t.app.inject({ method: 'POST', url: '/api/proxy/assignments', headers: full, payload: { proxy_id: added.json().id, emulator_device_id: deviceId } });
  expect(assigned.statusCode, assigned.body).toBe(201);
  const macroId = await codeMacro(w, {
    'main.py': [
      'import os, urllib.request',
      'print(all(os.environ[name] == os.environ["HTTP_PROXY"] for name in ("HTTPS_PROXY", "ALL_PROXY")), os.environ["HTTP_PROXY"], "alice" in str(os.environ))',
      `print(urllib.request.urlopen("http://echo.test:${echo.port}/", timeout=5).read().decode())`,
    ].join('\n'),
  });
  const seen = proxy.usernames.length;
  const run = await startRun(w, deviceId, { macro_id: macroId });
  const { run: done, history } = await ended(w, run.id);
  expect(done.state, JSON.stringify(done)).toBe('finished');
  expect(history).toMatchObject({ status: 'completed', proxy_exit_ip: '127.0.0.1', proxy_country: 'ZZ' });
  expect(await logLines(w, run.execution_id)).toEqual(['True http://127.0.0.1:3128 False', '{"ip":"127.0.0.1"}']);
  // The launch check and the macro's own request each went through the proxy, with its credentials.
  expect(proxy.usernames.slice(seen)).toEqual(['alice', 'alice']);
});

test('a device without a proxy runs with the egress proxy alone and records no exit', async () => {
  const macroId = await codeMacro(w, { 'main.py': 'import os\nprint(sorted({os.environ[n] for n in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")}))' });
  const run = await startRun(w, await cloudDevice(w), { macro_id: macroId });
  const { history } = await ended(w, run.id);
  expect(history.proxy_exit_ip).toBeUndefined();
  expect(await logLines(w, run.execution_id)).toEqual(["['http://127.0.0.1:3128']"]);
});
