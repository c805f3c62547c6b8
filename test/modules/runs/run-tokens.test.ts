// The run token: checked before anything else, stored only as a hash, good for its own run's
// device only and only while the run is launching or running.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sha256Hex } from '../../../src/lib/crypto.js';
import { issueRunToken, revokeRunToken } from '../../../src/modules/runs/rpc/run-tokens.js';
import { runPython } from '../../../src/modules/runs/runner/python-run.js';
import { LogShipper } from '../../../src/modules/runs/logs/log-shipper.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';
import { bootedCloudDevice, listen } from './helpers/device.js';
import { insertCloudRun } from './helpers/records.js';
import { MemorySink, removeTempDirs, runnerSettings, zipOf } from './helpers/runner.js';

let t: TestApp;
let baseUrl: string;
let user: SignedUpUser;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await listen(t.app);
  user = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
  removeTempDirs();
});

async function runWithToken(state: 'launching' | 'running' = 'running') {
  const device = await bootedCloudDevice(t.app, t.db, user);
  const run = await insertCloudRun(t.db.kysely, { userId: user.id, deviceId: device.id, macroId: 1, state });
  const token = await issueRunToken(t.db.kysely, run.id, Date.now());
  return { device, run, token };
}

const call = (deviceId: number, fn: string, token: string | undefined, payload: object = {}) =>
  t.app.inject({ method: 'POST', url: `/api/runs/devices/${deviceId}/${fn}`, headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, payload });

const codeOf = (res: { statusCode: number; json(): { details: { code: string } } }) => [res.statusCode, res.json().details.code];

describe('the run token', () => {
  test('opens its own device while the run is launching or running', async () => {
    for (const state of ['launching', 'running'] as const) {
      const { device, token } = await runWithToken(state);
      const res = await call(device.id, 'current_app', token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ package: 'com.android.launcher3', activity: 'com.android.launcher3.Launcher' });
    }
  });

  test('is stored as its SHA-256 only', async () => {
    const { run, token } = await runWithToken();
    const row = await t.db.kysely.selectFrom('cloud_runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
    expect(token).toMatch(/^svr_[0-9a-f]{64}$/);
    expect(row.token_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token.slice(4));
  });

  test('is refused for another device, even one of the same user', async () => {
    const { token } = await runWithToken();
    const other = await bootedCloudDevice(t.app, t.db, user, 'Other phone');
    expect(codeOf(await call(other.id, 'ui_tree', token))).toEqual([403, 'wrong_device']);
    // Another device's path cannot be reached by a token whose run is someone else's either.
    const stranger = await signUp(t.app);
    const theirs = await bootedCloudDevice(t.app, t.db, stranger, 'Their phone');
    expect(codeOf(await call(theirs.id, 'tap', token, { x: 1, y: 1 }))).toEqual([403, 'wrong_device']);
  });

  test('is refused once the run is stopping or has ended, and once revoked', async () => {
    for (const state of ['stopping', 'finished', 'failed', 'stopped'] as const) {
      const { device, run, token } = await runWithToken();
      await t.db.kysely.updateTable('cloud_runs').set({ state }).where('id', '=', run.id).execute();
      expect(codeOf(await call(device.id, 'ui_tree', token))).toEqual([401, 'invalid_run_token']);
    }
    const { device, run, token } = await runWithToken();
    await revokeRunToken(t.db.kysely, run.id, Date.now());
    expect(codeOf(await call(device.id, 'ui_tree', token))).toEqual([401, 'invalid_run_token']);
  });

  test('is checked first: no token, a malformed one or an unknown one is a 401 before the body is looked at', async () => {
    const { device } = await runWithToken();
    expect(codeOf(await call(device.id, 'tap', undefined, { x: 'not a number' }))).toEqual([401, 'missing_run_token']);
    expect(codeOf(await call(device.id, 'tap', 'svr_short', { x: 'not a number' }))).toEqual([401, 'invalid_run_token']);
    expect(codeOf(await call(device.id, 'tap', `svr_${'0'.repeat(64)}`, { x: 'not a number' }))).toEqual([401, 'invalid_run_token']);
    const keyLike = await t.app.inject({ method: 'POST', url: `/api/runs/devices/${device.id}/ui_tree`, headers: { 'x-api-key': `svc_${'a'.repeat(48)}` }, payload: {} });
    expect(codeOf(keyLike)).toEqual([401, 'missing_run_token']);
    expect((await call(device.id, 'ui_tree', undefined)).headers['www-authenticate']).toBe('Bearer realm="svc_device"');
  });

  test('with a good token, a bad body is a 422 and a device that is not booted a 409', async () => {
    const { device, token } = await runWithToken();
    expect(codeOf(await call(device.id, 'tap', token, { x: 'not a number', y: 1 }))).toEqual([422, 'validation_failed']);
    expect(codeOf(await call(device.id, 'swipe', token, { x1: 1, y1: 1, x2: 2, y2: 2, ms: 60_001 }))).toEqual([422, 'validation_failed']);
    expect(codeOf(await call(device.id, 'emit_event', token, { name: 'Bad Name' }))).toEqual([422, 'validation_failed']);
    expect(codeOf(await call(device.id, 'emit_event', token, { name: 'big', data: { blob: 'x'.repeat(70_000) } }))).toEqual([422, 'validation_failed']);
    await device.host.shutdown(device.id);
    expect(codeOf(await call(device.id, 'ui_tree', token))).toEqual([409, 'device_not_ready']);
  });

  test('a macro holding the token of an ended run gets svc_device.DeviceError, and its run fails with that line', async () => {
    const { device, run, token } = await runWithToken();
    await t.db.kysely.updateTable('cloud_runs').set({ state: 'finished' }).where('id', '=', run.id).execute();
    const sink = new MemorySink();
    const logs = new LogShipper(sink);
    const macro = 'import svc_device\ntry:\n    svc_device.tap(1, 1)\nexcept svc_device.DeviceError as e:\n    print(e.status, e.code)\n    raise';
    const outcome = await runPython(runnerSettings(), { executionId: run.execution_id, zip: zipOf({ 'main.py': macro }), entryPath: 'main.py', args: {}, deviceUrl: `${baseUrl}/api/runs/devices/${device.id}`, token, logs });
    await logs.close();
    expect(sink.lines[0]).toBe('401 invalid_run_token');
    expect(outcome).toMatchObject({ state: 'failed', exitCode: 1, errorMessage: 'svc_device.DeviceError: This run token is not valid: the run has ended, or the token is wrong. (invalid_run_token)' });
  });
});
