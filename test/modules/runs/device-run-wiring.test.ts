// Devices and runs wired together (build-modules.ts), through the real routes and the app's
// own job workers (the lifecycle job and the run job, as `serve` starts them): a run on a
// stopped device starts it through the lifecycle and waits for `ready`; a device that cannot
// boot fails the run with a readable reason; a device stop or delete stops its run first;
// leases and runs exclude each other; two concurrent starts on one device let exactly one win.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allModules } from '../../../src/build-modules.js';
import { createLifecycleWorker, DEMO_APP_PACKAGE, SimFaults, SimHost } from '../../../src/modules/devices/index.js';
import { createTestApp, type TestApp, type TestStorage } from '../../helpers/app.js';
import { ROOMY_LIMITS } from '../../helpers/code-sync.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';
import { removeTempDirs, tempDir } from './helpers/runner.js';

interface World {
  t: TestApp & { storage: TestStorage };
  user: SignedUpUser;
  headers: Record<string, string>;
  workers: { start(): void; stop(): Promise<void> }[];
}

async function world(env: Record<string, string> = {}): Promise<World> {
  const t = await createTestApp({ env: { ...ROOMY_LIMITS, RUNS_DIR: tempDir(), SIM_BOOT_MS: '300', ...env } });
  const user = await signUp(t.app);
  const key = (await createKey(t.app, user, { scopes: ['macros:run', 'runs:read'] })).key;
  return { t, user, headers: withKey(key), workers: [] };
}

async function closeWorld(w: World | undefined): Promise<void> {
  if (!w) return;
  await Promise.all(w.workers.map((x) => x.stop()));
  await w.t.close();
}

const LONG = { version: 1, steps: [{ type: 'log', message: 'about to wait' }, { type: 'wait', ms: 600_000 }] };
const WALK = {
  version: 1,
  steps: [
    { type: 'log', message: 'hello from the wiring test' },
    { type: 'open_app', package: DEMO_APP_PACKAGE },
    { type: 'tap', element_id: 'row_beans' },
    { type: 'wait_for_text', text: 'Add to cart', timeout_ms: 5000 },
  ],
};

async function blockMacro(w: World, program: unknown): Promise<number> {
  const res = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.user.auth, payload: { name: 'Wiring', kind: 'block', blocks: program } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const cloudDevice = async (w: World) => (await createCloudDevice(w.t.app, w.user, { name: 'Wired phone' })).id as number;
const postRun = (w: World, deviceId: number, macroId: number) => w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/run`, headers: w.headers, payload: { macro_id: macroId } });
const getRun = async (w: World, runId: number) => (await w.t.app.inject({ url: `/api/hosted/runs/${runId}`, headers: w.headers })).json();
const deviceState = async (w: World, id: number) =>
  (await w.t.db.kysely.selectFrom('devices').select(['hosted_state', 'hosted_state_message']).where('id', '=', id).executeTakeFirst()) ?? null;
const historyOf = async (w: World, executionId: string) =>
  (await w.t.app.inject({ url: '/api/executions?page_size=200', headers: w.headers })).json().rows.find((r: { execution_id: string }) => r.execution_id === executionId);

async function ended(w: World, runId: number, timeout = 20_000) {
  await expect.poll(async () => (await getRun(w, runId)).state, { timeout, interval: 20 }).toMatch(/^(finished|failed|stopped)$/);
  return getRun(w, runId);
}

async function running(w: World, runId: number) {
  await expect.poll(async () => (await getRun(w, runId)).state, { timeout: 15_000, interval: 20 }).toBe('running');
}

async function startedRun(w: World, deviceId: number, macroId: number) {
  const res = await postRun(w, deviceId, macroId);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; execution_id: string; state: string };
}

const macroEvents = async (w: World, executionId: string) =>
  (await w.t.db.kysely.selectFrom('events').select(['type', 'payload']).where('user_id', '=', w.user.id).where('type', 'like', 'macro.%').orderBy('id').execute())
    .filter((e) => JSON.parse(e.payload).data.execution_id === executionId)
    .map((e) => e.type);

describe('with the app\'s own workers', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
    // What `serve` starts: every module's workers.
    w.workers = allModules(w.t.app.modules).flatMap((m) => m.workers ?? []);
    for (const x of w.workers) x.start();
  });
  afterAll(async () => {
    await closeWorld(w);
    removeTempDirs();
  });

  test('a run on a stopped device: 201 launching, the lifecycle boots the device, the run finishes, history completed, logs readable', async () => {
    const deviceId = await cloudDevice(w);
    expect((await deviceState(w, deviceId))?.hosted_state).toBe('stopped');
    const macroId = await blockMacro(w, WALK);
    const run = await startedRun(w, deviceId, macroId);
    expect(run.state).toBe('launching');
    // Watch the device's states while the run launches.
    const seen: string[] = [];
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [state, r] = [(await deviceState(w, deviceId))?.hosted_state, await getRun(w, run.id)];
      if (state && seen.at(-1) !== state) seen.push(state);
      if (['finished', 'failed', 'stopped'].includes(r.state) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // The boot (300 ms) is always seen; `stopped` and `placing` may pass before the first look.
    expect(seen.filter((s) => s !== 'placing' && s !== 'stopped')).toEqual(['starting', 'ready']);
    expect(seen.every((s) => ['stopped', 'placing', 'starting', 'ready'].includes(s))).toBe(true);
    const done = await ended(w, run.id);
    expect(done.state, JSON.stringify(done)).toBe('finished');
    expect(await historyOf(w, run.execution_id)).toMatchObject({ status: 'completed', execution_type: 'block', device_id: deviceId });
    const logs = await w.t.app.inject({ url: `/api/executions/${run.execution_id}/logs?max_lines=100`, headers: w.headers });
    expect(logs.statusCode, logs.body).toBe(200);
    const lines: string[] = logs.json().lines;
    expect(lines[0], lines.join('\n')).toContain('step 1/4: log');
    expect(lines.some((l) => l.includes('hello from the wiring test')), lines.join('\n')).toBe(true);
    expect(lines.some((l) => l.includes('tap'))).toBe(true);
    expect(await macroEvents(w, run.execution_id)).toEqual(['macro.started', 'macro.completed']);
    expect((await deviceState(w, deviceId))?.hosted_state).toBe('ready');
  });

  test('stopping the device stops its running run first, then the device; history stopped; macro.stopped emitted', async () => {
    const deviceId = await cloudDevice(w);
    const run = await startedRun(w, deviceId, await blockMacro(w, LONG));
    await running(w, run.id);
    const stop = await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/stop`, headers: w.user.auth });
    expect(stop.statusCode, stop.body).toBe(202);
    expect(stop.json().hosted_state).toBe('stopping');
    // Never a stopped device under a run that has not ended.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const device = await deviceState(w, deviceId);
      const r = await getRun(w, run.id);
      if (device?.hosted_state === 'stopped') {
        expect(r.state).toBe('stopped');
        break;
      }
      expect(Date.now(), `device stuck in ${device?.hosted_state}, run ${r.state}`).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const done = await getRun(w, run.id);
    expect(done).toMatchObject({ state: 'stopped', state_message: 'the device was stopped' });
    expect(await historyOf(w, run.execution_id)).toMatchObject({ status: 'stopped' });
    expect(await macroEvents(w, run.execution_id)).toEqual(['macro.started', 'macro.stopped']);
  });

  test('stopping the device while its run waits for the boot: the run ends stopped, then the device stopped', async () => {
    const deviceId = await cloudDevice(w);
    const run = await startedRun(w, deviceId, await blockMacro(w, LONG));
    await expect.poll(async () => (await deviceState(w, deviceId))?.hosted_state, { timeout: 15_000, interval: 5 }).toBe('starting');
    expect((await getRun(w, run.id)).state).toBe('launching');
    const stop = await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/stop`, headers: w.user.auth });
    expect(stop.statusCode, stop.body).toBe(202);
    const done = await ended(w, run.id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'stopped', state_message: 'the device was stopped' });
    expect(done.started_at).toBeUndefined();
    await expect.poll(async () => (await deviceState(w, deviceId))?.hosted_state, { timeout: 15_000 }).toBe('stopped');
    expect(await historyOf(w, run.execution_id)).toMatchObject({ status: 'stopped' });
  });

  test('a live view ends when its device is stopped', async () => {
    const deviceId = await cloudDevice(w);
    expect((await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/start`, headers: w.user.auth })).statusCode).toBe(202);
    await expect.poll(async () => (await deviceState(w, deviceId))?.hosted_state, { timeout: 15_000 }).toBe('ready');
    await w.t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = w.t.app.server.address() as AddressInfo;
    let frames = 0;
    const ended = new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: `/api/hosted/devices/${deviceId}/live?fps=10`, headers: w.user.auth }, (res) => {
        expect(res.statusCode).toBe(200);
        res.on('data', (chunk: Buffer) => (frames += chunk.toString('latin1').split('--frame\r\n').length - 1));
        res.on('end', () => resolve());
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    await expect.poll(() => frames, { timeout: 10_000 }).toBeGreaterThan(2);
    expect((await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/stop`, headers: w.user.auth })).statusCode).toBe(202);
    const outcome = await Promise.race([ended.then(() => 'ended'), new Promise((resolve) => setTimeout(() => resolve('still streaming'), 10_000))]);
    expect(outcome).toBe('ended');
  });

  test('deleting the device while its run waits for the boot: 204, the run ends stopped, the device is gone', async () => {
    const deviceId = await cloudDevice(w);
    const run = await startedRun(w, deviceId, await blockMacro(w, LONG));
    await expect.poll(async () => (await deviceState(w, deviceId))?.hosted_state, { timeout: 15_000, interval: 5 }).toBe('starting');
    const del = await w.t.app.inject({ method: 'DELETE', url: `/api/hosted/devices/${deviceId}`, headers: w.user.auth });
    expect(del.statusCode, del.body).toBe(204);
    const done = await ended(w, run.id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'stopped', state_message: 'the device was deleted' });
    expect(await historyOf(w, run.execution_id)).toMatchObject({ status: 'stopped' });
    await expect.poll(() => deviceState(w, deviceId), { timeout: 15_000, interval: 20 }).toBeNull();
  });

  test('deleting the device with a running run: 204, the run ends stopped, the device is gone', async () => {
    const deviceId = await cloudDevice(w);
    const run = await startedRun(w, deviceId, await blockMacro(w, LONG));
    await running(w, run.id);
    const del = await w.t.app.inject({ method: 'DELETE', url: `/api/hosted/devices/${deviceId}`, headers: w.user.auth });
    expect(del.statusCode, del.body).toBe(204);
    // Gone for its owner at once.
    expect((await w.t.app.inject({ url: `/api/devices/${deviceId}`, headers: w.user.auth })).statusCode).toBe(404);
    const done = await ended(w, run.id);
    expect(done).toMatchObject({ state: 'stopped', state_message: 'the device was deleted' });
    expect(await historyOf(w, run.execution_id)).toMatchObject({ status: 'stopped' });
    await expect.poll(() => deviceState(w, deviceId), { timeout: 15_000, interval: 20 }).toBeNull();
    // The run and its history outlive the device.
    expect(await getRun(w, run.id)).toMatchObject({ state: 'stopped', device_id: deviceId });
    expect(await historyOf(w, run.execution_id)).toMatchObject({ status: 'stopped', device_id: deviceId });
  });

  test('a lease held refuses a run (409 device_busy); an active run refuses a lease (device_busy)', async () => {
    const leases = w.t.app.modules.devices.services.leases;
    const leased = await cloudDevice(w);
    const grant = await leases.lease({ userId: w.user.id, keyId: null }, leased, 5);
    const refused = await postRun(w, leased, await blockMacro(w, WALK));
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().details.code).toBe('device_busy');
    expect(await w.t.db.kysely.selectFrom('cloud_runs').select('id').where('device_id', '=', leased).execute()).toEqual([]);
    await leases.release({ userId: w.user.id, keyId: null }, grant.lease_id);

    const busy = await cloudDevice(w);
    const run = await startedRun(w, busy, await blockMacro(w, LONG));
    await expect(leases.lease({ userId: w.user.id, keyId: null }, busy, 5)).rejects.toMatchObject({ code: 'device_busy' });
    await running(w, run.id);
    await expect(leases.lease({ userId: w.user.id, keyId: null }, busy, 5)).rejects.toMatchObject({ code: 'device_busy' });
    expect(await w.t.db.kysely.selectFrom('device_leases').select('lease_id').where('device_id', '=', busy).execute()).toEqual([]);
    const stop = await w.t.app.inject({ method: 'POST', url: `/api/hosted/runs/${run.id}/stop`, headers: w.headers });
    expect(stop.statusCode, stop.body).toBe(202);
    expect((await ended(w, run.id)).state).toBe('stopped');
  });

  test('a lease and a run asked for at once on a ready device: exactly one wins, the other is device_busy', async () => {
    const leases = w.t.app.modules.devices.services.leases;
    const macroId = await blockMacro(w, LONG);
    for (let round = 0; round < 3; round += 1) {
      const deviceId = await cloudDevice(w);
      expect((await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/start`, headers: w.user.auth })).statusCode).toBe(202);
      await expect.poll(async () => (await deviceState(w, deviceId))?.hosted_state, { timeout: 15_000 }).toBe('ready');
      const [lease, run] = await Promise.all([leases.lease({ userId: w.user.id, keyId: null }, deviceId, 5).then((g) => g, (e: { code?: string }) => e), postRun(w, deviceId, macroId)]);
      const leaseWon = 'lease_id' in lease;
      expect([leaseWon, run.statusCode === 201], run.body).toSatisfy(([l, r]: boolean[]) => l !== r);
      if (leaseWon) expect(run.json().details.code).toBe('device_busy');
      else expect(lease).toMatchObject({ code: 'device_busy' });
      const held = await w.t.db.kysely.selectFrom('device_leases').select('lease_id').where('device_id', '=', deviceId).execute();
      const active = await w.t.db.kysely.selectFrom('cloud_runs').select('id').where('device_id', '=', deviceId).execute();
      expect([held.length, active.length]).toEqual(leaseWon ? [1, 0] : [0, 1]);
      if (!leaseWon) {
        await w.t.app.inject({ method: 'POST', url: `/api/hosted/runs/${active[0].id}/stop`, headers: w.headers });
        expect((await ended(w, active[0].id)).state).toBe('stopped');
      }
    }
  });

  test('two concurrent starts on one device: exactly one 201, the other 409 device_busy', async () => {
    for (let round = 0; round < 3; round += 1) {
      const deviceId = await cloudDevice(w);
      const macroId = await blockMacro(w, LONG);
      const answers = await Promise.all([postRun(w, deviceId, macroId), postRun(w, deviceId, macroId)]);
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses, answers.map((a) => a.body).join('\n')).toEqual([201, 409]);
      expect(answers.find((a) => a.statusCode === 409)?.json().details.code).toBe('device_busy');
      const runs = await w.t.db.kysely.selectFrom('cloud_runs').select('id').where('device_id', '=', deviceId).execute();
      expect(runs).toHaveLength(1);
      const stop = await w.t.app.inject({ method: 'POST', url: `/api/hosted/runs/${runs[0].id}/stop`, headers: w.headers });
      expect(stop.statusCode).toBe(202);
      expect((await ended(w, runs[0].id)).state).toBe('stopped');
    }
  });
});

describe('a device that cannot boot', () => {
  let w: World;
  const faults = new SimFaults();
  beforeAll(async () => {
    w = await world();
    // The app's run job, and a lifecycle job like the app's (same hook) on a host with faults.
    const host = new SimHost({ db: w.t.db, clock: w.t.clock, bootMs: 0, faults });
    const runs = w.t.app.modules.runs.services.runs;
    const lifecycle = createLifecycleWorker({ db: w.t.db, clock: w.t.clock, log: { info() {}, warn() {}, error() {} }, host, stopActiveRun: (id, reason) => runs.stopActiveRunOnDevice(id, reason) });
    w.workers = [...w.t.app.modules.runs.workers, lifecycle];
    for (const x of w.workers) x.start();
  });
  afterAll(async () => {
    await closeWorld(w);
    removeTempDirs();
  });

  test('the device goes to error and the run ends failed with a reason a person understands', async () => {
    const deviceId = await cloudDevice(w);
    faults.inject('boot', { kind: 'fail', message: 'the emulator image is corrupt' }, { deviceId });
    const run = await startedRun(w, deviceId, await blockMacro(w, WALK));
    const done = await ended(w, run.id);
    expect(done.state).toBe('failed');
    expect(done.state_message).toMatch(/did not become ready/);
    expect(done.state_message).toContain('the emulator image is corrupt');
    expect(await deviceState(w, deviceId)).toEqual({ hosted_state: 'error', hosted_state_message: expect.stringContaining('the emulator image is corrupt') });
    expect(await historyOf(w, run.execution_id)).toMatchObject({ status: 'failed' });
    expect(await macroEvents(w, run.execution_id)).toEqual(['macro.failed']);

    // A device already in error: the run restarts it (error → placing); with the fault gone it finishes.
    faults.clear();
    const again = await startedRun(w, deviceId, await blockMacro(w, WALK));
    expect((await ended(w, again.id)).state).toBe('finished');
    expect((await deviceState(w, deviceId))?.hosted_state).toBe('ready');
  });
});

describe('a device deleted before any worker took its run', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });
  afterAll(async () => {
    await closeWorld(w);
    removeTempDirs();
  });

  test('the run ends stopped, "the device was deleted", and the device goes', async () => {
    const deviceId = await cloudDevice(w);
    const run = await startedRun(w, deviceId, await blockMacro(w, WALK));
    expect((await w.t.app.inject({ method: 'DELETE', url: `/api/hosted/devices/${deviceId}`, headers: w.user.auth })).statusCode).toBe(204);
    // The run job first: it finds the device being deleted when it asks the lifecycle to start it.
    w.workers = [...w.t.app.modules.runs.workers];
    for (const x of w.workers) x.start();
    const done = await ended(w, run.id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'stopped', state_message: 'the device was deleted' });
    expect(await historyOf(w, run.execution_id)).toMatchObject({ status: 'stopped' });
    const lifecycle = w.t.app.modules.devices.workers ?? [];
    for (const x of lifecycle) x.start();
    w.workers.push(...lifecycle);
    await expect.poll(() => deviceState(w, deviceId), { timeout: 15_000, interval: 20 }).toBeNull();
  });
});
