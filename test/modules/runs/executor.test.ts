// The executor for one claimed run, as a run worker will call it: the pinned bundle (so a
// deleted or re-synced macro changes nothing), arguments from the profile, the run token for
// exactly the run's lifetime, logs in the store, and the outcome.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readNewestLines } from '../../../src/modules/run-logs/store.js';
import { adbTargetOf } from '../../../src/modules/runs/executor/load-claimed-run.js';
import { bundleForMacro, buildRunsModule, canonicalJson, type RunsServices } from '../../../src/modules/runs/index.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { ROOMY_LIMITS } from '../../helpers/code-sync.js';
import { createMacro } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';
import { snapshotBody } from '../../helpers/zip.js';
import { createDeviceHost, type DeviceHost } from '../../../src/modules/devices/index.js';
import { bootOnHost } from './helpers/boot-on-host.js';
import { bootedCloudDevice, listen } from './helpers/device.js';
import { createPinnedRun } from './helpers/records.js';
import { removeTempDirs, tempDir } from './helpers/runner.js';

let t: TestApp;
let host: DeviceHost;
let runs: RunsServices;
let user: SignedUpUser;
let key: string;
beforeAll(async () => {
  t = await createTestApp({ env: ROOMY_LIMITS });
  const baseUrl = await listen(t.app);
  // The executor of a worker process: its own module instance on the same database.
  host = createDeviceHost(t.config, { db: t.db, clock: t.clock });
  runs = buildRunsModule({ config: { ...t.config, runsDir: tempDir() }, db: t.db, clock: t.clock, baseUrl, host, readiness: bootOnHost({ db: t.db, clock: t.clock, host }), images: t.app.modules.images.services.screen, emit: t.app.modules.events.services.emit }).services;
  user = await signUp(t.app);
  key = (await createKey(t.app, user)).key;
});
afterAll(async () => {
  await host.close();
  await t.close();
  removeTempDirs();
});

async function codeMacro(files: Record<string, string>, args: Record<string, unknown> = {}) {
  const macro = await createMacro(t.app, user, { kind: 'python' });
  const entries = Object.entries(files).map(([name, data]) => ({ name, data }));
  const upload = await t.app.inject({ method: 'POST', url: `/api/macros/${macro.id}/code-snapshot`, headers: withKey(key), payload: snapshotBody(entries, { entry_path: 'main.py' }) });
  expect(upload.statusCode, upload.body).toBe(201);
  const profiles = await t.app.inject({ url: `/api/macro-setting-profiles?macro_id=${macro.id}`, headers: withKey(key) });
  await t.app.inject({ method: 'PUT', url: `/api/macro-setting-profiles/${profiles.json().items[0].id}`, headers: withKey(key), payload: { args } });
  return macro.id as number;
}

async function logLines(executionId: string) {
  const { id } = await t.db.kysely.selectFrom('executions').select('id').where('execution_id', '=', executionId).executeTakeFirstOrThrow();
  return (await readNewestLines(t.db.kysely, id, 1000)).lines;
}

const tokenHash = async (runId: number) => (await t.db.kysely.selectFrom('cloud_runs').select('token_hash').where('id', '=', runId).executeTakeFirstOrThrow()).token_hash;

describe('a Python run', () => {
  test('runs the pinned snapshot with the profile’s arguments under the run’s own, drives its device, and holds a token only while it runs', async () => {
    const macroId = await codeMacro(
      { 'main.py': 'import svc_device as d, sys\nprint(sys.argv[1:])\nd.open_app("com.example.shop")\nprint(d.current_app())\nprint("v1")' },
      { speed: 1, mode: 'slow', __cli_args__: '--speed 1' },
    );
    const device = await bootedCloudDevice(t.app, t.db, user);
    const { run, bundle } = await createPinnedRun(t.db.kysely, { userId: user.id, deviceId: device.id, macroId, args: { mode: 'fast', extra: true } });
    expect(run.bundle_sha).toBe(createHash('sha256').update(bundle.content).digest('hex'));
    expect(run.code_ref).toMatch(/^[0-9a-f]{64}$/);

    // Re-synced and then deleted after the run was created: the run still runs what it pinned.
    await t.app.inject({ method: 'POST', url: `/api/macros/${macroId}/code-snapshot`, headers: withKey(key), payload: snapshotBody([{ name: 'main.py', data: 'print("v2")' }]) });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/macros/${macroId}`, headers: user.auth })).statusCode).toBe(204);

    const tokenWhileStarted: (string | null)[] = [];
    const claimed = await runs.executor.load(run.id, { onStarted: async () => void tokenWhileStarted.push(await tokenHash(run.id)) });
    expect(claimed.args).toEqual({ speed: 1, mode: 'fast', extra: true });
    const { outcome } = await runs.executor.execute(claimed);
    expect(outcome).toEqual({ state: 'finished', exitCode: 0, errorMessage: null, stateMessage: null });
    expect(await logLines(run.execution_id)).toEqual(["['--speed', '1', '--mode', 'fast', '--extra', 'true']", 'com.example.shop', 'v1']);
    expect(tokenWhileStarted).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(await tokenHash(run.id)).toBeNull();
  });

  test('a stop ends it stopped, and a bundle that does not match its bundle_sha never runs', async () => {
    const macroId = await codeMacro({ 'main.py': 'import time\nprint("waiting", flush=True)\ntime.sleep(300)' });
    const device = await bootedCloudDevice(t.app, t.db, user);
    const { run } = await createPinnedRun(t.db.kysely, { userId: user.id, deviceId: device.id, macroId });
    const stop = new AbortController();
    const running = runs.executor.execute(await runs.executor.load(run.id, { signal: stop.signal }));
    await expect.poll(() => logLines(run.execution_id), { timeout: 10_000 }).toEqual(['waiting']);
    stop.abort();
    expect((await running).outcome).toMatchObject({ state: 'stopped', stateMessage: 'stopped on request' });
    expect(await tokenHash(run.id)).toBeNull();

    const claimed = await runs.executor.load(run.id);
    expect((await runs.executor.execute({ ...claimed, bundle: Buffer.concat([claimed.bundle, Buffer.from('x')]) })).outcome).toMatchObject({
      state: 'failed',
      stateMessage: 'the pinned bundle does not match its bundle_sha, so it was not run',
    });
  });
});

describe('a block run', () => {
  test('runs the program pinned as canonical JSON, one log line per step', async () => {
    const program = { version: 1, steps: [{ type: 'open_app', package: 'com.example.shop' }, { type: 'tap', text: 'Checkout' }, { type: 'log', message: 'at checkout' }] };
    const created = await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Blocks', kind: 'block', blocks: program } });
    const device = await bootedCloudDevice(t.app, t.db, user);
    const { run, bundle } = await createPinnedRun(t.db.kysely, { userId: user.id, deviceId: device.id, macroId: created.json().id });
    expect(bundle.content.toString()).toBe(canonicalJson(program));
    expect(run).toMatchObject({ macro_kind: 'block', code_ref: null, entry_path: null, bundle_sha: createHash('sha256').update(canonicalJson(program)).digest('hex') });
    let started = 0;
    const { outcome } = await runs.executor.execute(await runs.executor.load(run.id, { onStarted: () => void (started += 1) }));
    expect(outcome.state).toBe('finished');
    expect(started).toBe(1);
    expect(await logLines(run.execution_id)).toEqual(['step 1/3: open app com.example.shop', 'step 2/3: tap "Checkout"', 'step 3/3: log: at checkout']);
    expect(await device.driver.uiTree()).toContainEqual(expect.objectContaining({ element_id: 'place_order' }));
  });
});

describe('what cannot run', () => {
  test('a code macro never synced and a block macro with an empty program: 409 macro_not_runnable; someone else’s macro: 404', async () => {
    const code = await createMacro(t.app, user, { kind: 'python' });
    await expect(bundleForMacro(t.db.kysely, user.id, code.id)).rejects.toMatchObject({ status: 409, code: 'macro_not_runnable', message: expect.stringContaining('never synced') });
    const empty = await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Empty', kind: 'block', blocks: [] } });
    await expect(bundleForMacro(t.db.kysely, user.id, empty.json().id)).rejects.toMatchObject({ status: 409, code: 'macro_not_runnable', message: expect.stringContaining('no steps') });
    // A record from before programs were checked: only the database holds such a program now.
    const invalid = await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Old', kind: 'block', blocks: [] } });
    await t.db.kysely.updateTable('macros').set({ blocks: JSON.stringify([{ op: 'tap' }]) }).where('id', '=', invalid.json().id).execute();
    await expect(bundleForMacro(t.db.kysely, user.id, invalid.json().id)).rejects.toMatchObject({ status: 409, message: expect.stringContaining('not valid') });
    const stranger = await signUp(t.app);
    await expect(bundleForMacro(t.db.kysely, stranger.id, code.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('one active run per device', () => {
  test('the database refuses a second launching, running or stopping run on a device, and takes one once the first has ended', async () => {
    const macroId = await codeMacro({ 'main.py': 'print(1)' });
    const device = await bootedCloudDevice(t.app, t.db, user);
    const { run } = await createPinnedRun(t.db.kysely, { userId: user.id, deviceId: device.id, macroId });
    for (const state of ['launching', 'running', 'stopping'] as const) {
      await t.db.kysely.updateTable('cloud_runs').set({ state }).where('id', '=', run.id).execute();
      await expect(createPinnedRun(t.db.kysely, { userId: user.id, deviceId: device.id, macroId })).rejects.toThrow(/unique|duplicate/i);
    }
    await t.db.kysely.updateTable('cloud_runs').set({ state: 'failed' }).where('id', '=', run.id).execute();
    await expect(createPinnedRun(t.db.kysely, { userId: user.id, deviceId: device.id, macroId })).resolves.toBeDefined();
  });
});

describe('on adb hosts', () => {
  test('the placement slot gives the serial and its ADB server', () => {
    expect(adbTargetOf('127.0.0.1:5037/emulator-5554')).toEqual({ host: '127.0.0.1', port: 5037, serial: 'emulator-5554' });
    expect(adbTargetOf('[::1]:5038/localhost:5555')).toEqual({ host: '::1', port: 5038, serial: 'localhost:5555' });
    expect(adbTargetOf('no-slash')).toBeUndefined();
  });
});
