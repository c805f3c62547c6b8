// Devices and runs wired together (build-modules.ts), through the real routes and the app's
// own job workers (the lifecycle job and the run job, as `serve` starts them): a run on a
// stopped device starts it through the lifecycle and waits for `ready`; a device stop or
// delete stops its run first; a live view ends with its device. Leases against runs, and
// devices that cannot boot or go before a worker takes the run: device-run-exclusion.test.ts.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { blockMacro, closeWorld, cloudDevice, deviceState, ended, getRun, historyOf, LONG, macroEvents, running, servedWorld, startedRun, WALK, type World } from './helpers/device-run-world.js';
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
});
