// The start checks of decisions.md §10 in their order and their codes (§1), reading and
// stopping runs, the one transaction a start writes, and executions/report refusing a cloud
// run's history record. No worker runs here: every run stays `launching` unless a test moves it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCloudDevice, createDevice, createMacro } from '../../helpers/resources.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';
import { blockMacro, cloudDevice, type CloudWorld, cloudWorld, codeMacro, postRun, startRun } from './helpers/cloud-world.js';
import { removeTempDirs } from './helpers/runner.js';

let w: CloudWorld;
let macroId: number;
beforeAll(async () => {
  w = await cloudWorld();
  macroId = await codeMacro(w, { 'main.py': 'print(1)' });
});
afterAll(async () => {
  await w.close();
  removeTempDirs();
});

const codeOf = (res: { json(): { details: { code: string } } }) => res.json().details.code;
const countRows = async () => {
  const k = w.t.db.kysely;
  const [runs, history, bundles] = await Promise.all([
    k.selectFrom('cloud_runs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    k.selectFrom('executions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    k.selectFrom('cloud_run_bundles').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return [Number(runs.n), Number(history.n), Number(bundles.n)];
};

describe('POST /api/hosted/devices/{id}/run', () => {
  test('creates the run, its pinned bundle and its history record (running) together', async () => {
    const deviceId = await cloudDevice(w);
    const before = await countRows();
    const run = await startRun(w, deviceId, { macro_id: macroId });
    expect(await countRows()).toEqual(before.map((n) => n + 1));
    const history = await w.t.db.kysely.selectFrom('executions').selectAll().where('execution_id', '=', run.execution_id).executeTakeFirstOrThrow();
    expect(history).toMatchObject({ status: 'running', execution_type: 'python', macro_id: macroId, device_id: deviceId, ended_at: null });
    const got = await w.t.app.inject({ url: `/api/hosted/runs/${run.id}`, headers: w.headers });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(run);
    const counts = await w.t.app.inject({ url: '/api/executions?status=running', headers: w.headers });
    expect(counts.json().rows.map((r: { execution_id: string }) => r.execution_id)).toContain(run.execution_id);
  });

  test('404 for a local device (not_a_cloud_device), a foreign device, a foreign or missing macro; nothing is written', async () => {
    const local = await createDevice(w.t.app, w.user, { name: 'My phone', port: 5555 });
    const stranger = await signUp(w.t.app);
    const foreignDevice = (await createCloudDevice(w.t.app, stranger)).id;
    const foreignMacro = (await createMacro(w.t.app, stranger, { kind: 'python' })).id;
    const mine = await cloudDevice(w);
    const before = await countRows();
    const localRes = await postRun(w, local.id, { macro_id: macroId });
    expect([localRes.statusCode, codeOf(localRes)]).toEqual([404, 'not_a_cloud_device']);
    expect(localRes.json().message).toMatch(/not a cloud device/);
    for (const [deviceId, macro] of [[foreignDevice, macroId], [mine, foreignMacro], [mine, 999_999], [999_999, macroId]]) {
      const res = await postRun(w, deviceId, { macro_id: macro });
      expect([res.statusCode, codeOf(res)]).toEqual([404, 'not_found']);
    }
    expect(await countRows()).toEqual(before);
  });

  test('409 macro_not_runnable: a code macro never synced, a block macro with an empty program', async () => {
    const deviceId = await cloudDevice(w);
    const unsynced = (await createMacro(w.t.app, w.user, { kind: 'python' })).id;
    const empty = await blockMacro(w, []);
    for (const macro of [unsynced, empty]) {
      const res = await postRun(w, deviceId, { macro_id: macro });
      expect([res.statusCode, codeOf(res)]).toEqual([409, 'macro_not_runnable']);
    }
  });

  test('422 for a run argument no command line can carry', async () => {
    const res = await postRun(w, await cloudDevice(w), { macro_id: macroId, args: { __cli_args__: 'a | b' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.errors[0].path).toBe('body.args.__cli_args__');
  });

  test('409 device_busy with an active run (launching, running or stopping) and with an unexpired lease; an ended run or expired lease frees it', async () => {
    const deviceId = await cloudDevice(w);
    const first = await startRun(w, deviceId, { macro_id: macroId });
    for (const state of ['launching', 'running', 'stopping'] as const) {
      await w.t.db.kysely.updateTable('cloud_runs').set({ state }).where('id', '=', first.id).execute();
      const res = await postRun(w, deviceId, { macro_id: macroId });
      expect([state, res.statusCode, codeOf(res)]).toEqual([state, 409, 'device_busy']);
    }
    await w.t.db.kysely.updateTable('cloud_runs').set({ state: 'failed' }).where('id', '=', first.id).execute();
    const now = w.t.clock.now();
    await w.t.db.kysely.insertInto('device_leases').values({ device_id: deviceId, lease_id: `lease_${'a'.repeat(24)}`, user_id: w.user.id, key_id: null, expires_at: now + 60_000, created_at: now, updated_at: now }).execute();
    const leased = await postRun(w, deviceId, { macro_id: macroId });
    expect([leased.statusCode, codeOf(leased)]).toEqual([409, 'device_busy']);
    expect(leased.json().message).toMatch(/leased/);
    await w.t.db.kysely.updateTable('device_leases').set({ expires_at: now }).where('device_id', '=', deviceId).execute();
    expect((await postRun(w, deviceId, { macro_id: macroId })).statusCode).toBe(201);
  });

  test('409 device_busy comes before 503 runs_unavailable, which carries Retry-After', async () => {
    const off = await cloudWorld({ env: { RUNS_ENABLED: 'false' } });
    try {
      const macro = await codeMacro(off, { 'main.py': 'print(1)' });
      const deviceId = await cloudDevice(off);
      const res = await postRun(off, deviceId, { macro_id: macro });
      expect([res.statusCode, codeOf(res), res.headers['retry-after']]).toEqual([503, 'runs_unavailable', '60']);
      const now = off.t.clock.now();
      await off.t.db.kysely.insertInto('device_leases').values({ device_id: deviceId, lease_id: `lease_${'b'.repeat(24)}`, user_id: off.user.id, key_id: null, expires_at: now + 60_000, created_at: now, updated_at: now }).execute();
      expect(codeOf(await postRun(off, deviceId, { macro_id: macro }))).toBe('device_busy');
      expect(await off.t.db.kysely.selectFrom('cloud_runs').select('id').execute()).toEqual([]);
    } finally {
      await off.close();
    }
  });
});

describe('GET and stop', () => {
  test("someone else's run and a missing run answer 404; a stop of a launching run answers 202 stopping", async () => {
    const run = await startRun(w, await cloudDevice(w), { macro_id: macroId });
    const stranger = await signUp(w.t.app);
    const theirs = withKey((await createKey(w.t.app, stranger, { scopes: ['macros:run'] })).key);
    for (const [method, url] of [['GET', `/api/hosted/runs/${run.id}`], ['POST', `/api/hosted/runs/${run.id}/stop`], ['GET', '/api/hosted/runs/999999']] as const) {
      const res = await w.t.app.inject({ method, url, headers: url.includes('999999') ? w.headers : theirs });
      expect([url, res.statusCode, codeOf(res)]).toEqual([url, 404, 'not_found']);
    }
    const stop = await w.t.app.inject({ method: 'POST', url: `/api/hosted/runs/${run.id}/stop`, headers: w.headers });
    expect([stop.statusCode, stop.json().state]).toEqual([202, 'stopping']);
    const again = await w.t.app.inject({ method: 'POST', url: `/api/hosted/runs/${run.id}/stop`, headers: w.headers });
    expect([again.statusCode, again.json().state]).toEqual([202, 'stopping']);
  });

  test('a run stopped before any worker took it ends stopped without starting', async () => {
    const run = await startRun(w, await cloudDevice(w), { macro_id: macroId });
    await w.t.app.inject({ method: 'POST', url: `/api/hosted/runs/${run.id}/stop`, headers: w.headers });
    const worker = w.worker();
    try {
      await expect.poll(async () => (await w.t.app.inject({ url: `/api/hosted/runs/${run.id}`, headers: w.headers })).json().state, { timeout: 10_000 }).toBe('stopped');
      const history = await w.t.db.kysely.selectFrom('executions').selectAll().where('execution_id', '=', run.execution_id).executeTakeFirstOrThrow();
      expect(history).toMatchObject({ status: 'stopped', exit_code: null });
    } finally {
      await worker.stop();
    }
  });
});

describe('POST /api/executions/report', () => {
  test('refuses to change a cloud run’s history record: 409 run_managed_by_service, and the record is unchanged', async () => {
    const deviceId = await cloudDevice(w);
    const run = await startRun(w, deviceId, { macro_id: macroId });
    const before = await w.t.db.kysely.selectFrom('executions').selectAll().where('execution_id', '=', run.execution_id).executeTakeFirstOrThrow();
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/api/executions/report',
      headers: w.user.auth,
      payload: { execution_id: run.execution_id, status: 'completed', macro_id: macroId, device_id: deviceId, execution_type: 'python', started_at: '2026-03-02T10:00:00Z', ended_at: '2026-03-02T10:00:01Z' },
    });
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'run_managed_by_service']);
    expect(await w.t.db.kysely.selectFrom('executions').selectAll().where('execution_id', '=', run.execution_id).executeTakeFirstOrThrow()).toEqual(before);
  });

  test('a report cannot create a record under a cr_ id either (another account’s cloud run, or one not minted yet)', async () => {
    const deviceId = await cloudDevice(w);
    const count = async () => (await w.t.db.kysely.selectFrom('executions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    const before = Number(await count());
    for (const executionId of ['cr_0123456789abcdef01234567', 'cr_anything']) {
      const res = await w.t.app.inject({
        method: 'POST',
        url: '/api/executions/report',
        headers: w.user.auth,
        payload: { execution_id: executionId, status: 'running', macro_id: macroId, device_id: deviceId, execution_type: 'python', started_at: '2026-03-02T10:00:00Z' },
      });
      expect([res.statusCode, codeOf(res)], executionId).toEqual([409, 'run_managed_by_service']);
    }
    expect(Number(await count())).toBe(before);
  });
});
