// Devices and runs wired together, continued (device-run-wiring.test.ts has the lifecycle):
// leases and runs exclude each other and two concurrent starts on one device let exactly one
// win; a device that cannot boot fails its run with a readable reason; a device deleted
// before any worker took its run ends the run stopped.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLifecycleWorker, SimFaults, SimHost } from '../../../src/modules/devices/index.js';
import { blockMacro, closeWorld, cloudDevice, deviceState, ended, historyOf, LONG, macroEvents, postRun, running, servedWorld, startedRun, WALK, world, type World } from './helpers/device-run-world.js';
import { removeTempDirs } from './helpers/runner.js';

describe('with the app\'s own workers', () => {
  let w: World;
  beforeAll(async () => {
    w = await servedWorld();
  });
  afterAll(async () => {
    await closeWorld(w);
    removeTempDirs();
  });

  test('a lease held refuses a run (409 device_busy); an active run refuses a lease (device_busy)', async () => {
    const leases = w.t.app.modules.devices.services.leases;
    const leased = await cloudDevice(w);
    const grant = await leases.lease({ userId: w.user.id, keyId: null }, { device_id: leased, minutes: 5 });
    const refused = await postRun(w, leased, await blockMacro(w, WALK));
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().details.code).toBe('device_busy');
    expect(await w.t.db.kysely.selectFrom('cloud_runs').select('id').where('device_id', '=', leased).execute()).toEqual([]);
    await leases.release({ userId: w.user.id, keyId: null }, { lease_id: grant.lease_id });

    const busy = await cloudDevice(w);
    const run = await startedRun(w, busy, await blockMacro(w, LONG));
    await expect(leases.lease({ userId: w.user.id, keyId: null }, { device_id: busy, minutes: 5 })).rejects.toMatchObject({ code: 'device_busy' });
    await running(w, run.id);
    await expect(leases.lease({ userId: w.user.id, keyId: null }, { device_id: busy, minutes: 5 })).rejects.toMatchObject({ code: 'device_busy' });
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
      const [lease, run] = await Promise.all([leases.lease({ userId: w.user.id, keyId: null }, { device_id: deviceId, minutes: 5 }).then((g) => g, (e: { code?: string }) => e), postRun(w, deviceId, macroId)]);
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
