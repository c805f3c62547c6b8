// Device leases (decisions.md §9): one lease per device, extended by leasing again, released,
// expired (and swept), ended by a stop; a stopped device is started and the lease waits for
// ready; leases and active runs exclude each other with 409 device_busy.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AppError } from '../../../src/core/errors.js';
import type { LeaseService } from '../../../src/modules/devices/index.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createCloudDevice, createDevice } from '../../helpers/resources.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';
import { deviceRow, lifecycleFor, type TestLifecycle } from './helpers/cloud.js';

let t: TestApp;
let user: SignedUpUser;
let life: TestLifecycle;
let leases: LeaseService;
const asKey = (keyId: number | null = 7, who = user) => ({ userId: who.id, keyId });

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_BOOT_MS: '0' } });
  user = await signUp(t.app);
  life = lifecycleFor(t.db, t.clock);
  // The running loop, woken by the start a lease makes.
  life.worker.start();
  leases = t.app.modules.devices.services.leases;
});
afterAll(async () => {
  await life.worker.stop();
  await t.close();
});

async function refusal(promise: Promise<unknown>): Promise<[number, string]> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  return [(error as AppError).status, (error as AppError).code];
}

async function activeRun(deviceId: number, state = 'running') {
  await t.db.kysely
    .insertInto('cloud_runs')
    .values({ user_id: user.id, execution_id: `cr_${deviceId}${state}`.padEnd(27, '0'), device_id: deviceId, macro_id: 1, macro_kind: 'python', state, state_message: null, args: '{}', entry_path: null, bundle_sha: 'x', code_ref: null, token_hash: null, started_at: null, finished_at: null, locked_until: null, locked_by: null, created_at: 0, updated_at: 0 } as never)
    .execute();
}

describe('lease', () => {
  test('a stopped device is started and the lease answers once it is ready', async () => {
    const { id } = await createCloudDevice(t.app, user);
    const grant = await leases.lease(asKey(), { device_id: id, minutes: 10 });
    expect(grant.lease_id).toMatch(/^lease_[0-9a-f]{24}$/);
    expect(grant.expires_at).toBe(new Date(t.clock.now() + 10 * 60_000).toISOString());
    expect((await deviceRow(t.db, id))?.hosted_state).toBe('ready');
    expect(await leases.holderOf(id)).toMatchObject({ lease_id: grant.lease_id, user_id: user.id, key_id: 7 });
    const { driver, device } = await leases.resolve(asKey(), { lease_id: grant.lease_id });
    expect(device).toMatchObject({ id, hosted_state: 'ready' });
    expect((await driver.currentApp())?.package).toBeTruthy();
  });

  test('leasing again before expiry extends the same lease; minutes default to 15 and stay within 1..120', async () => {
    const { id } = await createCloudDevice(t.app, user);
    const first = await leases.lease(asKey(), { device_id: id });
    expect(first.expires_at).toBe(new Date(t.clock.now() + 15 * 60_000).toISOString());
    t.clock.advance(60_000);
    const second = await leases.lease(asKey(), { device_id: id, minutes: 120 });
    expect(second.lease_id).toBe(first.lease_id);
    expect(second.expires_at).toBe(new Date(t.clock.now() + 120 * 60_000).toISOString());
    for (const minutes of [0, 121, 1.5]) expect(await refusal(leases.lease(asKey(), { device_id: id, minutes: minutes }))).toEqual([422, 'validation_failed']);
  });

  test('another caller (another key) is refused with device_busy while the lease lives, and gets a new lease after expiry', async () => {
    const { id } = await createCloudDevice(t.app, user);
    const mine = await leases.lease(asKey(1), { device_id: id, minutes: 1 });
    expect(await refusal(leases.lease(asKey(2), { device_id: id }))).toEqual([409, 'device_busy']);
    t.clock.advance(60_001);
    expect(await refusal(leases.resolve(asKey(1), { lease_id: mine.lease_id }))).toEqual([404, 'not_found']);
    expect(await leases.holderOf(id)).toBeNull();
    const theirs = await leases.lease(asKey(2), { device_id: id });
    expect(theirs.lease_id).not.toBe(mine.lease_id);
  });

  test('an active run makes the device busy; a finished run does not', async () => {
    const { id } = await createCloudDevice(t.app, user);
    await activeRun(id);
    expect(await refusal(leases.lease(asKey(), { device_id: id }))).toEqual([409, 'device_busy']);
    expect(await leases.holderOf(id)).toBeNull();
    const other = (await createCloudDevice(t.app, user)).id;
    await activeRun(other, 'finished');
    expect((await leases.lease(asKey(), { device_id: other })).lease_id).toMatch(/^lease_/);
  });

  test("someone else's device and a local device are 404; a device that fails to boot lends nothing", async () => {
    const other = await signUp(t.app);
    const theirs = (await createCloudDevice(t.app, other)).id;
    expect(await refusal(leases.lease(asKey(), { device_id: theirs }))).toEqual([404, 'not_found']);
    const local = (await createDevice(t.app, user)).id;
    expect(await refusal(leases.lease(asKey(), { device_id: local }))).toEqual([404, 'not_a_cloud_device']);
    const broken = (await createCloudDevice(t.app, user)).id;
    life.faults.inject('boot', { kind: 'fail', message: 'no kernel' }, { deviceId: broken, times: 1 });
    expect(await refusal(leases.lease(asKey(), { device_id: broken }))).toEqual([502, 'device_host_fault']);
    expect(await leases.holderOf(broken)).toBeNull();
  });
});

describe('release, resolve, stop and sweep', () => {
  test('release ends the lease at once; releasing again, or someone else’s lease, is 404', async () => {
    const { id } = await createCloudDevice(t.app, user);
    const grant = await leases.lease(asKey(), { device_id: id });
    const other = await signUp(t.app);
    expect(await refusal(leases.release(asKey(null, other), { lease_id: grant.lease_id }))).toEqual([404, 'not_found']);
    expect(await refusal(leases.resolve(asKey(null, other), { lease_id: grant.lease_id }))).toEqual([404, 'not_found']);
    await leases.release(asKey(), { lease_id: grant.lease_id });
    expect(await leases.holderOf(id)).toBeNull();
    expect(await refusal(leases.release(asKey(), { lease_id: grant.lease_id }))).toEqual([404, 'not_found']);
    expect(await refusal(leases.resolve(asKey(), { lease_id: grant.lease_id }))).toEqual([404, 'not_found']);
  });

  test('a stop ends the lease', async () => {
    const { id } = await createCloudDevice(t.app, user);
    const grant = await leases.lease(asKey(), { device_id: id });
    await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/stop`, headers: user.auth });
    // The running worker may have claimed the stop already, so runOnce can return before it
    // is done: wait for the lease to go rather than for this call.
    await life.worker.runOnce();
    await expect.poll(() => leases.holderOf(id), { timeout: 10_000 }).toBeNull();
    expect(await refusal(leases.resolve(asKey(), { lease_id: grant.lease_id }))).toEqual([404, 'not_found']);
  });

  test('the sweep deletes expired leases only', async () => {
    const a = (await createCloudDevice(t.app, user)).id;
    const b = (await createCloudDevice(t.app, user)).id;
    await leases.lease(asKey(), { device_id: a, minutes: 1 });
    await leases.lease(asKey(), { device_id: b, minutes: 30 });
    t.clock.advance(2 * 60_000);
    expect(await leases.sweepExpired()).toBeGreaterThanOrEqual(1);
    const left = await t.db.kysely.selectFrom('device_leases').select('device_id').where('device_id', 'in', [a, b]).execute();
    expect(left.map((r) => r.device_id)).toEqual([b]);
  });
});
