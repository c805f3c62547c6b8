// A run start asks whether a device host can take the run (decisions.md §10: 503
// `runs_unavailable`, with `Retry-After`). On DEVICE_HOST=adb with a pool of one serial (the
// fake ADB server, a real host-protocol server on 127.0.0.1) and the app's own workers: while
// device A holds the serial, a run on stopped device B is refused and nothing is stored, on
// the REST route and through the tool server's run_start alike; A itself still runs; once A
// stops, B's run is accepted and runs on the freed serial.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { FakeAdbServer } from '../../helpers/fake-adb/server.js';
import { createTestApp } from '../../helpers/app.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';
import { startFakeAdb } from '../devices/hosts/helpers/adb.js';
import { call, connect, failure, listeningApp } from '../mcp/helpers/client.js';
import { removeTempDirs, tempDir } from './helpers/runner.js';

let adb: FakeAdbServer;
let t: Awaited<ReturnType<typeof listeningApp>>;
let user: SignedUpUser;
let headers: Record<string, string>;

beforeAll(async () => {
  adb = await startFakeAdb([{ serial: 'emulator-5554' }]);
  t = await listeningApp({ env: { DEVICE_HOST: 'adb', ADB_SERVERS: `127.0.0.1:${adb.port}`, RUNS_DIR: tempDir(), RATE_LIMIT_PER_KEY: '100000' } });
  user = await signUp(t.app);
  headers = withKey((await createKey(t.app, user, { scopes: ['macros:run', 'runs:read'] })).key);
});
afterAll(async () => {
  await t?.close();
  await adb?.close();
  removeTempDirs();
});

const deviceState = async (id: number) => (await t.db.kysely.selectFrom('devices').select('hosted_state').where('id', '=', id).executeTakeFirst())?.hosted_state;
const postRun = (deviceId: number, macroId: number) => t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/run`, headers, payload: { macro_id: macroId } });
const runState = async (runId: number) => (await t.app.inject({ url: `/api/hosted/runs/${runId}`, headers })).json().state;

async function blockMacro(): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Quick', kind: 'block', blocks: { version: 1, steps: [{ type: 'log', message: 'on the phone' }] } } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function finished(runId: number): Promise<void> {
  await expect.poll(() => runState(runId), { timeout: 20_000, interval: 25 }).toMatch(/^(finished|failed|stopped)$/);
  expect(await runState(runId)).toBe('finished');
}

test('no free serial: 503 runs_unavailable with Retry-After and nothing stored; the holder still runs; a freed serial takes the run', async () => {
  const a = (await createCloudDevice(t.app, user, { name: 'A' })).id as number;
  const b = (await createCloudDevice(t.app, user, { name: 'B' })).id as number;
  const macroId = await blockMacro();
  expect((await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${a}/start`, headers: user.auth })).statusCode).toBe(202);
  await expect.poll(() => deviceState(a), { timeout: 20_000, interval: 25 }).toBe('ready');

  const refused = await postRun(b, macroId);
  expect([refused.statusCode, refused.json().details?.code, refused.headers['retry-after']], refused.body).toEqual([503, 'runs_unavailable', '60']);
  expect(refused.json().message).toMatch(/^No device host can take this run now: every ADB device of the pool \(1\) is in use by another running cloud device\./);
  // Nothing changed: no run, no history record, no count, and B was not started.
  expect(await t.db.kysely.selectFrom('cloud_runs').select('id').execute()).toEqual([]);
  expect(await t.db.kysely.selectFrom('executions').select('id').execute()).toEqual([]);
  expect((await t.db.kysely.selectFrom('devices').select('run_count').where('id', '=', b).executeTakeFirstOrThrow()).run_count).toBe(0);
  expect(await deviceState(b)).toBe('stopped');

  // The tool server's run_start calls the same service and answers the same code.
  const client = await connect(t.baseUrl, { headers });
  try {
    expect(failure(await call(client, 'run_start', { device_id: b, macro_id: macroId }))).toMatchObject({ code: 'runs_unavailable', text: expect.stringMatching(/in use/) });
  } finally {
    await client.close();
  }
  expect(await t.db.kysely.selectFrom('cloud_runs').select('id').execute()).toEqual([]);

  // A holds the serial, so a run on A is taken.
  const onA = await postRun(a, macroId);
  expect(onA.statusCode, onA.body).toBe(201);
  await finished(onA.json().id);

  // A stops and frees the serial: B's run is accepted, B is placed on it and the run finishes.
  expect((await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${a}/stop`, headers: user.auth })).statusCode).toBe(202);
  await expect.poll(() => deviceState(a), { timeout: 20_000, interval: 25 }).toBe('stopped');
  const onB = await postRun(b, macroId);
  expect(onB.statusCode, onB.body).toBe(201);
  await finished(onB.json().id);
  expect(await t.app.modules.devices.services.host.placement(b)).toMatchObject({ slot: `127.0.0.1:${adb.port}/emulator-5554` });
});

test('an ADB server that does not answer: 503 runs_unavailable naming it', async () => {
  const closed = await startFakeAdb([]);
  const port = closed.port;
  await closed.close();
  const other = await createTestApp({ env: { DEVICE_HOST: 'adb', ADB_SERVERS: `127.0.0.1:${port}` } });
  try {
    const owner = await signUp(other.app);
    const device = (await createCloudDevice(other.app, owner)).id;
    const macro = await other.app.inject({ method: 'POST', url: '/api/macros', headers: owner.auth, payload: { name: 'Q', kind: 'block', blocks: { version: 1, steps: [{ type: 'log', message: 'x' }] } } });
    const res = await other.app.inject({ method: 'POST', url: `/api/hosted/devices/${device}/run`, headers: owner.auth, payload: { macro_id: macro.json().id } });
    expect([res.statusCode, res.json().details?.code, res.headers['retry-after']], res.body).toEqual([503, 'runs_unavailable', '60']);
    expect(res.json().message).toContain(`The ADB server at 127.0.0.1:${port} is not reachable`);
    expect(await other.db.kysely.selectFrom('cloud_runs').select('id').execute()).toEqual([]);
  } finally {
    await other.close();
  }
});
