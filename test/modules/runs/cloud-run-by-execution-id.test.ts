// The run routes by execution_id (our extension, docs/runs.md "The run routes"): a cloud run
// read and stopped by the `cr_` id its history record carries, with the same owner checks,
// scope and session admission as by number; someone else's execution_id, or one that names no
// cloud run, answers 404; any other form answers 422 as a malformed numeric id always has, an
// over-long one 414; never a 500, and a refusal changes nothing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allModules } from '../../../src/build-modules.js';
import type { BackgroundWorker } from '../../../src/core/worker.js';
import { difference, snapshot, tablesOf } from '../../fuzz/state-snapshot.js';
import { createTestApp, type TestApp, type TestStorage } from '../../helpers/app.js';
import { ROOMY_LIMITS } from '../../helpers/code-sync.js';
import { createCloudDevice, createDevice } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';
import { removeTempDirs, tempDir } from './helpers/runner.js';

let t: TestApp & { storage: TestStorage };
let workers: BackgroundWorker[];
let a: SignedUpUser;
let b: SignedUpUser;
let ka: Record<string, string>; // a's key with macros:run
let kb: Record<string, string>; // b's key with macros:run
let macro: number;

const LONG = { version: 1, steps: [{ type: 'wait', ms: 600_000 }] };
const get = (ref: string | number, headers: Record<string, string>) => t.app.inject({ url: `/api/hosted/runs/${ref}`, headers });
const stop = (ref: string | number, headers: Record<string, string>) => t.app.inject({ method: 'POST', url: `/api/hosted/runs/${ref}/stop`, headers });
const codeOf = (res: { json(): { details?: { code?: string } } }) => res.json().details?.code;

/** A fresh cloud device of a's with a long block run on it, running. */
async function runningRun(): Promise<{ id: number; execution_id: string }> {
  const device = (await createCloudDevice(t.app, a, {})).id as number;
  const res = await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${device}/run`, headers: ka, payload: { macro_id: macro } });
  expect(res.statusCode, res.body).toBe(201);
  const run = res.json() as { id: number; execution_id: string };
  await expect.poll(async () => (await get(run.id, ka)).json().state, { timeout: 20_000, interval: 25 }).toBe('running');
  return run;
}

beforeAll(async () => {
  t = await createTestApp({ env: { ...ROOMY_LIMITS, RUNS_DIR: tempDir(), SIM_BOOT_MS: '0' } });
  workers = allModules(t.app.modules).flatMap((m) => m.workers ?? []);
  for (const w of workers) w.start();
  a = await signUp(t.app);
  b = await signUp(t.app);
  ka = withKey((await createKey(t.app, a, { scopes: ['macros:run', 'runs:read'] })).key);
  kb = withKey((await createKey(t.app, b, { scopes: ['macros:run', 'runs:read'] })).key);
  const created = await t.app.inject({ method: 'POST', url: '/api/macros', headers: a.auth, payload: { name: 'Long', kind: 'block', blocks: LONG } });
  expect(created.statusCode, created.body).toBe(201);
  macro = created.json().id;
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await t.close();
  removeTempDirs();
});

describe('by execution_id', () => {
  test('a read answers the same record as by number, to a key and to the owner’s session', async () => {
    const run = await runningRun();
    const byNumber = await get(run.id, ka);
    const byExecution = await get(run.execution_id, ka);
    expect(byExecution.statusCode, byExecution.body).toBe(200);
    expect(byExecution.json()).toEqual(byNumber.json());
    expect(byExecution.json()).toMatchObject({ id: run.id, execution_id: run.execution_id, state: 'running' });
    const bySession = await get(run.execution_id, a.auth);
    expect(bySession.statusCode, bySession.body).toBe(200);
    expect(bySession.json().id).toBe(run.id);
    await stop(run.id, ka);
  });

  test('a stop ends the run `stopped`, its history record too; a second stop answers it as it is', async () => {
    const run = await runningRun();
    const stopped = await stop(run.execution_id, ka);
    expect(stopped.statusCode, stopped.body).toBe(202);
    expect(stopped.json()).toMatchObject({ id: run.id, execution_id: run.execution_id, state: 'stopping' });
    await expect.poll(async () => (await get(run.execution_id, ka)).json().state, { timeout: 20_000, interval: 25 }).toBe('stopped');
    const history = await t.app.inject({ url: `/api/executions?page_size=200`, headers: ka });
    expect(history.json().rows.find((r: { execution_id: string }) => r.execution_id === run.execution_id)?.status).toBe('stopped');
    const again = await stop(run.execution_id, a.auth);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().state).toBe('stopped');
  });

  test('a key without macros:run is refused 403, as by number', async () => {
    const run = await runningRun();
    const reader = withKey((await createKey(t.app, a, { scopes: ['runs:read'] })).key);
    for (const res of [await get(run.execution_id, reader), await stop(run.execution_id, reader)]) {
      expect(res.statusCode, res.body).toBe(403);
    }
    expect((await get(run.id, ka)).json().state).toBe('running');
    await stop(run.id, ka);
  });
});

describe('refusals: 404 for an execution_id that is not your cloud run, 422 for any other form, never a 500', () => {
  test('the whole list, and nothing changes', async () => {
    const run = await runningRun();
    // A local run in the history: its execution_id can never have the `cr_` form (reports
    // refuse `cr_`), so it is a malformed cloud-run id.
    const local = (await createDevice(t.app, a, {})).id as number;
    const report = await t.app.inject({
      method: 'POST',
      url: '/api/executions/report',
      headers: a.auth,
      payload: { execution_id: 'local-run-0001', status: 'running', macro_id: macro, device_id: local, execution_type: 'block', started_at: '2026-03-02T10:00:00Z' },
    });
    expect(report.statusCode, report.body).toBe(200);
    // A history record with a `cr_` id and no cloud run (as the table allows): the routes look
    // in the cloud runs, so it is not found.
    const orphan = `cr_${'0'.repeat(23)}1`;
    const now = Date.now();
    await t.db.kysely
      .insertInto('executions')
      .values({ user_id: a.id, execution_id: orphan, status: 'running', macro_id: macro, macro_name: 'Long', device_id: local, device_name: 'x', device_port: null, group_id: null, execution_type: 'block', started_at: now, ended_at: null, duration_ms: null, exit_code: null, error_message: null, proxy_exit_ip: null, proxy_country: null, created_at: now, updated_at: now })
      .execute();

    const cases: [string, string, Record<string, string>, number, string][] = [
      ["another account's execution_id", run.execution_id, kb, 404, 'not_found'],
      ["another account's execution_id, with a session", run.execution_id, b.auth, 404, 'not_found'],
      ['a well-formed execution_id of no run', `cr_${'f'.repeat(24)}`, ka, 404, 'not_found'],
      ['a history record with a cr_ id and no cloud run', orphan, ka, 404, 'not_found'],
      ["a local run's execution_id", 'local-run-0001', ka, 422, 'validation_failed'],
      ['upper-case hex', run.execution_id.toUpperCase(), ka, 422, 'validation_failed'],
      ['upper-case hex after cr_', `cr_${run.execution_id.slice(3).toUpperCase()}`, ka, 422, 'validation_failed'],
      ['23 hex digits', run.execution_id.slice(0, -1), ka, 422, 'validation_failed'],
      ['25 hex digits', `${run.execution_id}0`, ka, 422, 'validation_failed'],
      ['a non-hex letter', `cr_${'g'.repeat(24)}`, ka, 422, 'validation_failed'],
      ['cr_ alone', 'cr_', ka, 422, 'validation_failed'],
      ['a space before it', `%20${run.execution_id}`, ka, 422, 'validation_failed'],
      ['a NUL after it', `${run.execution_id}%00`, ka, 422, 'validation_failed'],
      ['a number and the id', `${run.id}${run.execution_id}`, ka, 422, 'validation_failed'],
      ['past 2^53', '9007199254740993', ka, 422, 'validation_failed'],
      ['over-long (past the router limit)', `cr_${'a'.repeat(120)}`, ka, 414, 'uri_too_long'],
    ];
    const tables = await tablesOf(t.db.kysely, t.db.dialect);
    const before = await snapshot(t.db.kysely, tables);
    const wrong: string[] = [];
    for (const [name, ref, headers, status, code] of cases) {
      for (const [route, send] of [['get', get], ['stop', stop]] as const) {
        const res = await send(ref, headers);
        if (res.statusCode !== status || codeOf(res) !== code) wrong.push(`${route} with ${name}: ${res.statusCode} ${res.body.slice(0, 160)} (want ${status} ${code})`);
      }
    }
    expect(wrong).toEqual([]);
    expect(difference(before, await snapshot(t.db.kysely, tables))).toEqual([]);
    expect((await get(run.execution_id, ka)).json().state).toBe('running');
    await stop(run.id, ka);
  });

  test('the 422 names both accepted forms', async () => {
    const res = await get('local-run-0001', ka);
    expect(res.statusCode).toBe(422);
    // Both forms, not only the first branch's complaint ("must be integer").
    expect(res.json().message).toBe('Validation failed: path.id must be integer, or must match pattern "^cr_[0-9a-f]{24}$".');
    expect(res.json().details.error_count).toBe(1);
  });
});
