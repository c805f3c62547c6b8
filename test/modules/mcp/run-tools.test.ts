// The cloud-run tools through the SDK client on the real runs service and the app's own run
// and lifecycle workers: run_start of a block macro on a stopped device, run_get until it
// ends, run_logs reading its lines, run_stop, leases and runs excluding each other
// (device_busy both ways), and another account's ids, which are never found.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, test } from 'vitest';
import { createCloudDevice, createDevice } from '../../helpers/resources.js';
import { type SignedUpUser,  } from '../../helpers/users.js';
import { call, data, failure } from './helpers/client.js';
import { useMcpWorld } from './helpers/world.js';

const w = useMcpWorld();

type Run = { id: number; execution_id: string; device_id: number; macro_id: number; state: string; state_message?: string; bundle_sha: string };

async function blockMacro(user: SignedUpUser, steps: unknown[], name = 'Blocks'): Promise<number> {
  const res = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name, kind: 'block', blocks: { version: 1, steps } } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function untilEnded(client: Client, runId: number): Promise<Run> {
  let run: Run | undefined;
  await expect
    .poll(async () => (run = data<Run>(await call(client, 'run_get', { run_id: runId }))).state, { timeout: 20_000, interval: 25 })
    .toMatch(/^(finished|failed|stopped)$/);
  return run!;
}

/** The run's log lines (newest 1000), and proof the cursor has nothing after them. */
async function allLines(client: Client, executionId: string): Promise<string[]> {
  const page = data<{ execution_id: string; lines: string[]; last_seq: number }>(await call(client, 'run_logs', { execution_id: executionId, max_lines: 1000 }));
  expect(page.execution_id).toBe(executionId);
  expect(data(await call(client, 'run_logs', { execution_id: executionId, since_seq: page.last_seq }))).toMatchObject({ lines: [], last_seq: page.last_seq });
  return page.lines;
}

describe('cloud runs', () => {
  test('run_start of a block macro on a stopped device; run_get until it ends; run_logs reads its lines', async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Runner' });
    const macroId = await blockMacro(w.owner, [{ type: 'log', message: 'hello' }, { type: 'tap', x: 10, y: 10 }, { type: 'log', message: 'world' }]);
    const client = await w.clientFor(w.owner, ['macros:run']);
    const started = await call(client, 'run_start', { device_id: device.id, macro_id: macroId });
    const run = data<Run>(started);
    expect(run).toMatchObject({ id: expect.any(Number), execution_id: expect.stringMatching(/^cr_[0-9a-f]{24}$/), device_id: device.id, macro_id: macroId, state: 'launching', bundle_sha: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.parse((started.content[0] as { text: string }).text)).toEqual(started.structuredContent);
    // The REST route answers the same record.
    const rest = await w.t.app.inject({ url: `/api/hosted/runs/${run.id}`, headers: w.owner.auth });

    const ended = await untilEnded(client, run.id);
    expect(ended).toMatchObject({ id: run.id, state: 'finished', started_at: expect.any(String), finished_at: expect.any(String) });
    expect(Object.keys(rest.json()).filter((k) => !['state', 'started_at', 'finished_at', 'state_message'].includes(k)).sort()).toEqual(
      Object.keys(run).filter((k) => !['state', 'started_at', 'finished_at', 'state_message'].includes(k)).sort(),
    );
    const lines = await allLines(client, run.execution_id);
    const hello = lines.findIndex((l) => l.includes('hello'));
    expect(hello, lines.join('\n')).toBeGreaterThanOrEqual(0);
    expect(lines.findIndex((l) => l.includes('world'))).toBeGreaterThan(hello);
    // Stopping a run that ended answers it as it is.
    expect(data<Run>(await call(client, 'run_stop', { run_id: run.id }))).toMatchObject({ id: run.id, state: 'finished' });
    // The execution_id (as run_logs and the run history name the run) finds the same record.
    expect(data<Run>(await call(client, 'run_get', { run_id: run.execution_id }))).toMatchObject({ id: run.id, state: 'finished' });
    expect(data<Run>(await call(client, 'run_stop', { run_id: run.execution_id }))).toMatchObject({ id: run.id, state: 'finished' });
  });

  test('run_stop stops a running run; its device is free afterwards', async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Long runner' });
    const macroId = await blockMacro(w.owner, [{ type: 'log', message: 'waiting' }, { type: 'wait', ms: 600_000 }]);
    const client = await w.clientFor(w.owner, ['macros:run']);
    const run = data<Run>(await call(client, 'run_start', { device_id: device.id, macro_id: macroId }));
    await expect.poll(async () => data<Run>(await call(client, 'run_get', { run_id: run.id })).state, { timeout: 20_000, interval: 25 }).toBe('running');
    const stopping = data<Run>(await call(client, 'run_stop', { run_id: run.id }));
    expect(['stopping', 'stopped']).toContain(stopping.state);
    expect(await untilEnded(client, run.id)).toMatchObject({ state: 'stopped' });
    const again = data<Run>(await call(client, 'run_start', { device_id: device.id, macro_id: await blockMacro(w.owner, [{ type: 'log', message: 'next' }]) }));
    expect((await untilEnded(client, again.id)).state).toBe('finished');
  });

  test('a run refuses a leased device, and a lease refuses a device with a run: device_busy', async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Contested' });
    const client = await w.clientFor(w.owner, ['macros:run', 'devices:control']);
    const { lease_id } = data<{ lease_id: string }>(await call(client, 'device_lease', { device_id: device.id }));
    const quick = await blockMacro(w.owner, [{ type: 'log', message: 'quick' }]);
    expect(failure(await call(client, 'run_start', { device_id: device.id, macro_id: quick }))).toMatchObject({ code: 'device_busy' });
    // The REST route refuses it the same way.
    const rest = await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${device.id}/run`, headers: w.owner.auth, payload: { macro_id: quick } });
    expect([rest.statusCode, rest.json().details.code]).toEqual([409, 'device_busy']);
    await call(client, 'device_release', { lease_id });

    const slow = await blockMacro(w.owner, [{ type: 'wait', ms: 600_000 }]);
    const run = data<Run>(await call(client, 'run_start', { device_id: device.id, macro_id: slow }));
    expect(failure(await call(client, 'device_lease', { device_id: device.id }))).toMatchObject({ code: 'device_busy', text: expect.stringMatching(/run/) });
    expect(failure(await call(client, 'run_start', { device_id: device.id, macro_id: quick }))).toMatchObject({ code: 'device_busy' });
    await call(client, 'run_stop', { run_id: run.id });
    await untilEnded(client, run.id);
    expect((await call(client, 'device_lease', { device_id: device.id })).isError).toBeFalsy();
  });

  test('contract errors: a local device, an empty block macro, an unknown run', async () => {
    const client = await w.clientFor(w.owner, ['macros:run']);
    const local = await createDevice(w.t.app, w.owner, { name: 'Desk phone', port: 5555 });
    const macroId = await blockMacro(w.owner, [{ type: 'log', message: 'x' }]);
    expect(failure(await call(client, 'run_start', { device_id: local.id, macro_id: macroId }))).toMatchObject({ code: 'not_a_cloud_device' });
    const cloud = await createCloudDevice(w.t.app, w.owner, { name: 'Idle' });
    const empty = await blockMacro(w.owner, [], 'Empty');
    expect(failure(await call(client, 'run_start', { device_id: cloud.id, macro_id: empty }))).toMatchObject({ code: 'macro_not_runnable' });
    expect(failure(await call(client, 'run_start', { device_id: cloud.id, macro_id: 999_999 }))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(client, 'run_get', { run_id: 999_999 }))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(client, 'run_stop', { run_id: 999_999 }))).toMatchObject({ code: 'not_found' });
  });

  test("another account's device, macro, run and logs are not found", async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Private' });
    const macroId = await blockMacro(w.owner, [{ type: 'log', message: 'secret' }]);
    const mine = await w.clientFor(w.owner, ['macros:run']);
    const run = data<Run>(await call(mine, 'run_start', { device_id: device.id, macro_id: macroId }));
    await untilEnded(mine, run.id);

    const theirs = await w.clientFor(w.stranger, ['macros:run']);
    const theirMacro = await blockMacro(w.stranger, [{ type: 'log', message: 'theirs' }]);
    const theirDevice = await createCloudDevice(w.t.app, w.stranger, { name: 'Theirs' });
    expect(failure(await call(theirs, 'run_get', { run_id: run.id }))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(theirs, 'run_stop', { run_id: run.id }))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(theirs, 'run_get', { run_id: run.execution_id }))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(theirs, 'run_stop', { run_id: run.execution_id }))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(theirs, 'run_logs', { execution_id: run.execution_id }))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(theirs, 'run_start', { device_id: device.id, macro_id: theirMacro }))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(theirs, 'run_start', { device_id: theirDevice.id, macro_id: macroId }))).toMatchObject({ code: 'not_found' });
  });
});
