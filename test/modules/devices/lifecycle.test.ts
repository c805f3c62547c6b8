// The cloud device lifecycle (decisions.md §3, §9): start, stop and delete answer at once,
// and the lifecycle job carries the device through placing → starting → ready and
// stopping → stopped, stops its run and ends its lease first, records host faults as
// `error` with the reason, and takes over a device a dead worker left in motion.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createCloudDevice, createDevice, createGroup } from '../../helpers/resources.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';
import { deviceRow, lifecycleFor, type TestLifecycle, waitForState } from './helpers/cloud.js';

let t: TestApp;
let user: SignedUpUser;
let life: TestLifecycle;
beforeAll(async () => {
  t = await createTestApp({ env: { SIM_BOOT_MS: '0' } });
  user = await signUp(t.app);
  life = lifecycleFor(t.db, t.clock);
});
afterAll(() => t.close());

const call = (method: 'POST' | 'DELETE', url: string, who = user) => t.app.inject({ method, url, headers: who.auth });
const start = (id: number, who = user) => call('POST', `/api/hosted/devices/${id}/start`, who);
const stop = (id: number, who = user) => call('POST', `/api/hosted/devices/${id}/stop`, who);
const remove = (id: number, who = user) => call('DELETE', `/api/hosted/devices/${id}`, who);

async function readyDevice(): Promise<number> {
  const { id } = await createCloudDevice(t.app, user);
  expect((await start(id)).statusCode).toBe(202);
  await life.worker.runOnce();
  expect((await deviceRow(t.db, id))?.hosted_state).toBe('ready');
  return id;
}

describe('start', () => {
  test('answers 202 in placing at once; the job makes it ready and lets the lease go', async () => {
    const { id } = await createCloudDevice(t.app, user);
    const res = await start(id);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ id, is_hosted: true, hosted_state: 'placing' });
    expect(await life.worker.runOnce()).toBe(1);
    expect(await deviceRow(t.db, id)).toMatchObject({ hosted_state: 'ready', locked_by: null, locked_until: null });
    expect(await life.host.placement(id)).toMatchObject({ status: 'ready' });
    // Starting a device that is not stopped answers it as it is.
    const again = await start(id);
    expect([again.statusCode, again.json().hosted_state]).toEqual([200, 'ready']);
    expect(await life.worker.runOnce()).toBe(0);
  });

  test('a boot fault moves the device to error with the reason; a new start recovers it', async () => {
    const { id } = await createCloudDevice(t.app, user);
    life.faults.inject('boot', { kind: 'fail', message: 'the emulator image is corrupt' }, { deviceId: id, times: 1 });
    await start(id);
    await life.worker.runOnce();
    expect(await deviceRow(t.db, id)).toMatchObject({ hosted_state: 'error', hosted_state_message: 'the emulator image is corrupt', locked_by: null });
    const listed = (await t.app.inject({ url: '/api/emulator/devices', headers: user.auth })).json().rows.find((d: { id: number }) => d.id === id);
    expect(listed).toMatchObject({ hosted_state: 'error', hosted_state_message: 'the emulator image is corrupt' });
    const res = await start(id);
    expect([res.statusCode, res.json().hosted_state, res.json().hosted_state_message]).toEqual([202, 'placing', undefined]);
    await life.worker.runOnce();
    expect(await deviceRow(t.db, id)).toMatchObject({ hosted_state: 'ready', hosted_state_message: null });
  });

  test('no capacity at placing is an error saying so', async () => {
    const { id } = await createCloudDevice(t.app, user);
    life.faults.inject('place', { kind: 'no_capacity' }, { deviceId: id, times: 1 });
    await start(id);
    await life.worker.runOnce();
    const row = await deviceRow(t.db, id);
    expect(row?.hosted_state).toBe('error');
    expect(row?.hosted_state_message).toMatch(/^no device capacity/);
  });
});

describe('stop', () => {
  test('answers 202 in stopping; the job stops the run first, ends the lease, frees the host and rests in stopped', async () => {
    const id = await readyDevice();
    await t.app.modules.devices.services.leases.lease({ userId: user.id, keyId: null }, { device_id: id, minutes: 5 });
    const res = await stop(id);
    expect([res.statusCode, res.json().hosted_state]).toEqual([202, 'stopping']);
    await life.worker.runOnce();
    expect(await deviceRow(t.db, id)).toMatchObject({ hosted_state: 'stopped', locked_by: null });
    expect(life.stoppedRuns).toContainEqual([id, 'the device was stopped']);
    expect(await t.app.modules.devices.services.leases.holderOf(id)).toBeNull();
    expect(await life.host.placement(id)).toBeNull();
    // Stopping a stopped device answers it as it is.
    const again = await stop(id);
    expect([again.statusCode, again.json().hosted_state]).toEqual([200, 'stopped']);
  });

  test('a stop that arrives mid-boot wins: the boot is abandoned and the device ends stopped', async () => {
    const slow = lifecycleFor(t.db, t.clock, { bootMs: 5_000 });
    const { id } = await createCloudDevice(t.app, user);
    await start(id);
    const started = Date.now();
    const job = slow.worker.runOnce();
    await waitForState(t.db, id, 'starting');
    expect((await stop(id)).json().hosted_state).toBe('stopping');
    await job;
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await deviceRow(t.db, id)).toMatchObject({ hosted_state: 'stopped', locked_by: null });
    expect(await slow.host.placement(id)).toBeNull();
  });

  test('a shutdown fault leaves the device in error with the reason', async () => {
    const id = await readyDevice();
    life.faults.inject('shutdown', { kind: 'fail', message: 'the host did not answer' }, { deviceId: id, times: 1 });
    await stop(id);
    await life.worker.runOnce();
    expect(await deviceRow(t.db, id)).toMatchObject({ hosted_state: 'error', hosted_state_message: 'the host did not answer' });
    // From error, stop tries again.
    expect((await stop(id)).statusCode).toBe(202);
    await life.worker.runOnce();
    expect((await deviceRow(t.db, id))?.hosted_state).toBe('stopped');
  });
});

describe('delete', () => {
  test('a stopped device is deleted at once (204)', async () => {
    const { id } = await createCloudDevice(t.app, user);
    expect((await remove(id)).statusCode).toBe(204);
    expect(await deviceRow(t.db, id)).toBeUndefined();
    expect((await start(id)).statusCode).toBe(404);
  });

  test('a ready device disappears at once; the job stops its run, shuts it down and deletes the row', async () => {
    const group = await createGroup(t.app, user, { kind: 'cloud' });
    const id = await readyDevice();
    expect((await t.app.inject({ method: 'PUT', url: `/api/emulator/devices/${id}`, headers: user.auth, payload: { group_id: group.id } })).statusCode).toBe(200);
    expect((await remove(id)).statusCode).toBe(204);
    const listed = (await t.app.inject({ url: '/api/emulator/devices', headers: user.auth })).json().rows.map((d: { id: number }) => d.id);
    expect(listed).not.toContain(id);
    const groups = (await t.app.inject({ url: '/api/emulator/groups', headers: user.auth })).json().rows;
    expect(groups.find((g: { id: number }) => g.id === group.id).no_of_devices).toBe(0);
    expect((await start(id)).statusCode).toBe(404);
    expect((await remove(id)).statusCode).toBe(404);
    await life.worker.runOnce();
    expect(await deviceRow(t.db, id)).toBeUndefined();
    expect(life.stoppedRuns).toContainEqual([id, 'the device was deleted']);
    expect(await t.db.kysely.selectFrom('device_placements').select('device_id').where('device_id', '=', id).executeTakeFirst()).toBeUndefined();
  });
});

describe('recovery', () => {
  test('a device left in starting by a dead worker is carried on to ready by the next one', async () => {
    const { id } = await createCloudDevice(t.app, user);
    await start(id);
    await life.host.place(id);
    // What a worker that died mid-boot leaves: starting, under a lease that has run out.
    await t.db.kysely.updateTable('devices').set({ hosted_state: 'starting', locked_by: 'dead-worker:1', locked_until: t.clock.now() - 1 }).where('id', '=', id).execute();
    expect(await life.worker.runOnce()).toBe(1);
    expect(await deviceRow(t.db, id)).toMatchObject({ hosted_state: 'ready', locked_by: null });
  });

  test('a live lease of another worker is left alone', async () => {
    const { id } = await createCloudDevice(t.app, user);
    await start(id);
    await t.db.kysely.updateTable('devices').set({ locked_by: 'busy-worker:1', locked_until: t.clock.now() + 20_000 }).where('id', '=', id).execute();
    expect(await life.worker.runOnce()).toBe(0);
    expect((await deviceRow(t.db, id))?.hosted_state).toBe('placing');
  });
});

describe('refusals', () => {
  test("another account's device is 404 on every lifecycle route and stays as it is", async () => {
    const id = await readyDevice();
    const other = await signUp(t.app);
    for (const res of [await start(id, other), await stop(id, other), await remove(id, other)]) {
      expect([res.statusCode, res.json().details.code]).toEqual([404, 'not_found']);
    }
    expect((await deviceRow(t.db, id))?.hosted_state).toBe('ready');
  });

  test('a device on the user’s own machine is 404 not_a_cloud_device', async () => {
    const local = await createDevice(t.app, user);
    for (const res of [await start(local.id), await stop(local.id), await remove(local.id)]) {
      expect([res.statusCode, res.json().details.code]).toEqual([404, 'not_a_cloud_device']);
    }
  });
});
