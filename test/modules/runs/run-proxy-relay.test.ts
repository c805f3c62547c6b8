// The relay recipe on `adb` (decisions.md §6, §10): a run on a phone with an authenticated
// proxy starts an unauthenticated HTTP relay on 127.0.0.1:P (P the port the connection info
// documents) forwarding with the proxy's credentials, and points the phone at it (`adb
// reverse tcp:P tcp:P`, `settings put global http_proxy 127.0.0.1:P`); however the run ends
// (stopped, finished, failed) the phone's setting and reverse are undone and the relay closes.
// The phone is the fake ADB server's; the proxy and the IP-echo service are real servers on
// 127.0.0.1. A request a phone's app would send through 127.0.0.1:P is sent by the test.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createCloudDevice } from '../../helpers/resources.js';
import { listening, viaProxy } from '../../helpers/proxy-servers.js';
import { type AdbWorld, adbWorld, assignProxy, blockMacro, ended, getRun, phoneRoute, pythonMacro, startRun } from './helpers/adb-world.js';
import { removeTempDirs } from './helpers/runner.js';

const CREDENTIALS = { username: 'alice', password: 'relay:s3cret@pass' };
let w: AdbWorld;
let deviceId: number;
let port: number;

beforeAll(async () => {
  w = await adbWorld(CREDENTIALS);
  deviceId = (await createCloudDevice(w.t.app, w.user, { name: 'Proxied phone' })).id;
  port = await assignProxy(w, deviceId, CREDENTIALS);
});
afterAll(async () => {
  await w?.close();
  removeTempDirs();
});

const OFF = { http_proxy: ':0', reverses: {} };

test('during a run the phone points at the relay and the relay reaches the proxy with its credentials; a stop undoes both and closes the relay', async () => {
  expect(phoneRoute(w.phone)).toEqual({ http_proxy: null, reverses: {} });
  const run = await startRun(w, deviceId, { macro_id: await blockMacro(w, [{ type: 'log', message: 'waiting' }, { type: 'wait', ms: 600_000 }]) });
  await expect.poll(async () => (await getRun(w, run.id)).state, { timeout: 30_000, interval: 25 }).toBe('running');

  expect(phoneRoute(w.phone)).toEqual({ http_proxy: `127.0.0.1:${port}`, reverses: { [`tcp:${port}`]: `tcp:${port}` } });
  // What the driver really sent to the phone's shell.
  expect(w.phone.commands).toContain(`'settings' 'put' 'global' 'http_proxy' '127.0.0.1:${port}'`);
  const seen = w.proxy.usernames.length;
  const answer = await viaProxy(port, `http://127.0.0.1:${w.echo.port}/`);
  expect(answer).toEqual({ status: 200, body: '{"ip":"127.0.0.1"}' });
  // The proxy answers 407 unless the password matches, so a 200 means it got the right one.
  expect(w.proxy.usernames.slice(seen)).toEqual(['alice']);

  const stop = await w.t.app.inject({ method: 'POST', url: `/api/hosted/runs/${run.id}/stop`, headers: w.headers });
  expect(stop.statusCode, stop.body).toBe(202);
  expect((await ended(w, run.id)).state).toBe('stopped');
  expect(phoneRoute(w.phone)).toEqual(OFF);
  expect(await listening(port)).toBe(false);
});

test('a Python run that finishes, and a block run that fails: the route is there while they run and gone after', async () => {
  const code = [
    'import urllib.request',
    // The macro's own traffic: its sandbox's egress proxy, chained to the assigned proxy (the
    // relay on the host's loopback is the phone's, out of the sandbox's reach). Only the
    // test proxy resolves `echo.test` (to 127.0.0.1).
    `print(urllib.request.urlopen('http://echo.test:${w.echo.port}/', timeout=10).read().decode())`,
  ].join('\n');
  const python = await startRun(w, deviceId, { macro_id: await pythonMacro(w, code), args: { relay_port: port } });
  const done = await ended(w, python.id);
  expect(done.state, JSON.stringify(done)).toBe('finished');
  const logs = await w.t.app.inject({ url: `/api/executions/${python.execution_id}/logs`, headers: w.headers });
  expect(logs.json().lines).toEqual(['{"ip":"127.0.0.1"}']);
  const history = (await w.t.app.inject({ url: '/api/executions?page_size=200', headers: w.headers })).json().rows.find((r: { execution_id: string }) => r.execution_id === python.execution_id);
  expect(history).toMatchObject({ status: 'completed', proxy_exit_ip: '127.0.0.1', proxy_country: 'ZZ' });
  expect(phoneRoute(w.phone)).toEqual(OFF);
  expect(await listening(port)).toBe(false);

  const failing = await startRun(w, deviceId, { macro_id: await blockMacro(w, [{ type: 'wait_for_text', text: 'Never on screen', timeout_ms: 1 }]) });
  expect((await ended(w, failing.id)).state).toBe('failed');
  expect(phoneRoute(w.phone)).toEqual(OFF);
  expect(await listening(port)).toBe(false);
});

test('a relay port already taken, or a phone ADB cannot reach: the run fails at launch naming the step, and nothing is left behind', async () => {
  const { createServer } = await import('node:net');
  const squatter = createServer();
  await new Promise<void>((resolve, reject) => squatter.once('error', reject).listen(port, '127.0.0.1', resolve));
  const quick = await blockMacro(w, [{ type: 'log', message: 'never' }]);
  try {
    const run = await startRun(w, deviceId, { macro_id: quick });
    const done = await ended(w, run.id);
    expect(done).toMatchObject({ state: 'failed', state_message: `the device could not be routed through its proxy: starting the local relay on 127.0.0.1:${port} failed: port ${port} on 127.0.0.1 is already in use` });
    expect(done.started_at).toBeUndefined();
    expect(phoneRoute(w.phone)).toEqual(OFF);
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
  }

  w.phone.state = 'offline';
  try {
    const run = await startRun(w, deviceId, { macro_id: quick });
    const done = await ended(w, run.id);
    expect(done.state).toBe('failed');
    expect(done.state_message).toMatch(new RegExp(`^the device could not be routed through its proxy: adb reverse tcp:${port} tcp:${port} failed: The device emulator-5554 is not available`));
    expect(done.state_message).not.toContain(CREDENTIALS.password);
    // The relay it had started is closed again.
    expect(await listening(port)).toBe(false);
  } finally {
    w.phone.state = 'device';
  }
});

test('a run whose worker was lost: the recovering worker removes the dead relay’s route from the phone, then ends the run "worker lost"', async () => {
  const leftover = port + 1;
  w.phone.settings.set('global/http_proxy', `127.0.0.1:${leftover}`);
  w.phone.reverses.set(`tcp:${leftover}`, `tcp:${leftover}`);
  const now = w.t.clock.now();
  const run = await w.t.db.kysely
    .insertInto('cloud_runs')
    .values({
      user_id: w.user.id, execution_id: `cr_${'d'.repeat(24)}`, device_id: deviceId, macro_id: await blockMacro(w, []), macro_kind: 'block', state: 'running', state_message: null, args: '{}',
      entry_path: null, bundle_sha: 'e'.repeat(64), code_ref: null, token_hash: null, started_at: now, finished_at: null, locked_until: now - 1, locked_by: 'a-dead-worker', created_at: now, updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await w.t.app.modules.runs.runWorker.jobs.runOnce();
  expect(await ended(w, run.id)).toMatchObject({ state: 'failed', state_message: 'worker lost' });
  expect(phoneRoute(w.phone)).toEqual(OFF);
});

test('the proxy password is never logged', () => {
  const logs = w.t.logs.join('\n');
  expect(logs.length).toBeGreaterThan(0);
  expect(logs).not.toContain(CREDENTIALS.password);
  expect(logs).not.toContain(encodeURIComponent(CREDENTIALS.password));
});
