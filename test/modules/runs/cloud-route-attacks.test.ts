// The cloud-device and cloud-run routes under attack: other accounts' ids, ids that are huge,
// negative or not numbers, bad query values, wrong content types, bodies that are not APKs
// (empty, text, a truncated real APK), a gigantic or deeply nested `args`, report on a `cr_`
// id. Every refusal answers the status and code docs/errors.md names, never a 500, and
// changes nothing in any table. Then a race: a delete that lands while a run is starting.
import { readFileSync } from 'node:fs';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allModules } from '../../../src/build-modules.js';
import type { BackgroundWorker } from '../../../src/core/worker.js';
import type { Db } from '../../../src/db/database.js';
import { cloudRunService } from '../../../src/modules/runs/cloud-runs/service.js';
import { difference, snapshot, tablesOf } from '../../fuzz/state-snapshot.js';
import { createTestApp, type TestApp, type TestStorage } from '../../helpers/app.js';
import { ROOMY_LIMITS } from '../../helpers/code-sync.js';
import { createCloudDevice, createDevice } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';
import { buildApk } from '../devices/hosts/helpers/build-apk.js';
import { removeTempDirs, tempDir } from './helpers/runner.js';

let t: TestApp & { storage: TestStorage };
let workers: BackgroundWorker[];
let a: SignedUpUser;
let b: SignedUpUser;
let ka: Record<string, string>;
let kb: Record<string, string>;
let ready: number; // a's cloud device, ready, with a running run
let idle: number; // a's cloud device, ready, no run
let local: number; // a's device on their own machine
let foreign: number; // b's cloud device
let macro: number; // a's block macro (long)
let foreignMacro: number; // b's block macro
let runId: number;
let executionId: string;

const LONG = { version: 1, steps: [{ type: 'wait', ms: 600_000 }] };
const blockMacro = async (user: SignedUpUser) =>
  (await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Long', kind: 'block', blocks: LONG } })).json().id as number;
const stateOf = async (id: number) => (await t.db.kysely.selectFrom('devices').select('hosted_state').where('id', '=', id).executeTakeFirst())?.hosted_state;

async function until(done: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('the set-up did not settle in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  t = await createTestApp({ env: { ...ROOMY_LIMITS, RUNS_DIR: tempDir(), SIM_BOOT_MS: '0' } });
  workers = allModules(t.app.modules).flatMap((m) => m.workers ?? []);
  for (const w of workers) w.start();
  a = await signUp(t.app);
  b = await signUp(t.app);
  ka = withKey((await createKey(t.app, a, { scopes: ['macros:run', 'runs:read'] })).key);
  kb = withKey((await createKey(t.app, b, { scopes: ['macros:run', 'runs:read'] })).key);
  ready = (await createCloudDevice(t.app, a, { name: 'Busy' })).id;
  idle = (await createCloudDevice(t.app, a, { name: 'Idle' })).id;
  local = (await createDevice(t.app, a, {})).id;
  foreign = (await createCloudDevice(t.app, b, {})).id;
  macro = await blockMacro(a);
  foreignMacro = await blockMacro(b);
  const run = await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${ready}/run`, headers: ka, payload: { macro_id: macro } });
  expect(run.statusCode, run.body).toBe(201);
  ({ id: runId, execution_id: executionId } = run.json());
  expect((await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${idle}/start`, headers: a.auth })).statusCode).toBe(202);
  await until(async () => (await t.app.inject({ url: `/api/hosted/runs/${runId}`, headers: ka })).json().state === 'running');
  await until(async () => (await stateOf(idle)) === 'ready');
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await t.close();
  removeTempDirs();
});

interface Attack {
  name: string;
  request: () => InjectOptions;
  status: number;
  code: string;
}

const session = () => a.auth;
const apk = (id: number | string, payload: unknown, contentType?: string) => (): InjectOptions => ({
  method: 'POST' as const,
  url: `/api/hosted/devices/${id}/apks`,
  headers: { ...session(), ...(contentType ? { 'content-type': contentType } : {}) },
  payload: payload as string | Buffer,
});
const json = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: () => Record<string, string>, payload?: unknown) => (): InjectOptions => ({
  method,
  url,
  headers: { ...headers(), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
  ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
});

function attacks(): Attack[] {
  const list: Attack[] = [];
  const deviceRoutes = (id: string | number): [string, () => InjectOptions][] => [
    ['start', json('POST', `/api/hosted/devices/${id}/start`, session)],
    ['stop', json('POST', `/api/hosted/devices/${id}/stop`, session)],
    ['delete', json('DELETE', `/api/hosted/devices/${id}`, session)],
    ['screenshot', json('GET', `/api/hosted/devices/${id}/screenshot`, session)],
    ['live', json('GET', `/api/hosted/devices/${id}/live?fps=1`, session)],
    ['apps', json('GET', `/api/hosted/devices/${id}/apps`, session)],
    ['apks', apk(id, Buffer.from('PK'), 'application/vnd.android.package-archive')],
    ['run', json('POST', `/api/hosted/devices/${id}/run`, () => ka, { macro_id: macro })],
  ];
  const runRoutes = (id: string | number): [string, () => InjectOptions][] => [
    ['get run', json('GET', `/api/hosted/runs/${id}`, () => ka)],
    ['stop run', json('POST', `/api/hosted/runs/${id}/stop`, () => ka)],
  ];
  for (const [label, id] of [['huge', '99999999999999999999'], ['past 2^53', '9007199254740993'], ['negative', '-1'], ['zero', '0'], ['not a number', 'abc'], ['fraction', '1.5']] as const) {
    for (const [route, request] of [...deviceRoutes(id), ...runRoutes(id)]) list.push({ name: `${route} with a ${label} id`, request, status: 422, code: 'validation_failed' });
  }
  for (const [route, request] of [...deviceRoutes(2_147_483_648), ...runRoutes(2_147_483_648)]) list.push({ name: `${route} with an id past int32`, request, status: 404, code: 'not_found' });
  for (const [route, request] of deviceRoutes(foreign)) list.push({ name: `${route} on another account's device`, request, status: 404, code: 'not_found' });
  for (const [route, request] of deviceRoutes(local)) list.push({ name: `${route} on a local device`, request, status: 404, code: 'not_a_cloud_device' });
  list.push(
    { name: "get another account's run", request: json('GET', `/api/hosted/runs/${runId}`, () => kb), status: 404, code: 'not_found' },
    { name: "stop another account's run", request: json('POST', `/api/hosted/runs/${runId}/stop`, () => kb), status: 404, code: 'not_found' },
    { name: "run another account's macro", request: json('POST', `/api/hosted/devices/${idle}/run`, () => ka, { macro_id: foreignMacro }), status: 404, code: 'not_found' },
    { name: 'run on a device with a run', request: json('POST', `/api/hosted/devices/${ready}/run`, () => ka, { macro_id: macro }), status: 409, code: 'device_busy' },
    { name: 'run with no credentials', request: json('POST', `/api/hosted/devices/${idle}/run`, () => ({}), { macro_id: macro }), status: 401, code: 'missing_api_key' },
    { name: 'device start with a key', request: json('POST', `/api/hosted/devices/${idle}/start`, () => ka), status: 401, code: 'missing_credentials' },
    { name: 'report on a cloud run', request: json('POST', '/api/executions/report', session, { execution_id: executionId, status: 'completed', macro_id: macro, device_id: ready, execution_type: 'block', started_at: '2026-03-02T10:00:00Z', ended_at: '2026-03-02T10:00:01Z' }), status: 409, code: 'run_managed_by_service' },
  );
  for (const query of ['max_edge=0', 'max_edge=-5', 'max_edge=99999', 'max_edge=abc', 'format=gif', 'format=', 'format=PNG', 'x=1']) {
    list.push({ name: `screenshot ?${query}`, request: json('GET', `/api/hosted/devices/${idle}/screenshot?${query}`, session), status: 422, code: 'validation_failed' });
  }
  for (const query of ['fps=99', 'fps=0', 'fps=abc', 'fps=1.5', 'y=1']) {
    list.push({ name: `live ?${query}`, request: json('GET', `/api/hosted/devices/${idle}/live?${query}`, session), status: 422, code: 'validation_failed' });
  }
  for (const contentType of ['text/plain', 'multipart/form-data; boundary=x', 'application/json', 'image/png']) {
    list.push({ name: `APK sent as ${contentType}`, request: apk(idle, '{"a":1}', contentType), status: 415, code: 'unsupported_media_type' });
  }
  list.push(
    { name: 'APK that is text', request: apk(idle, Buffer.from('hello, I am not an app'), 'application/vnd.android.package-archive'), status: 422, code: 'invalid_apk' },
    { name: 'APK that is empty', request: apk(idle, Buffer.alloc(0), 'application/octet-stream'), status: 422, code: 'invalid_apk' },
  );
  const run = (name: string, payload: unknown, status: number, code: string, contentType = 'application/json') =>
    list.push({ name, request: () => ({ method: 'POST', url: `/api/hosted/devices/${idle}/run`, headers: { ...ka, 'content-type': contentType }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }), status, code });
  run('run with a gigantic args object', { macro_id: macro, args: Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, 'v'.repeat(8)])) }, 413, 'payload_too_large');
  run('run with args 5000 objects deep', `{"macro_id":${macro},"args":{"d":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`, 422, 'validation_failed');
  run('run with args 100000 arrays deep', `{"macro_id":${macro},"args":{"d":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`, 422, 'validation_failed');
  run('run with an empty body', '', 422, 'validation_failed');
  run('run with truncated JSON', '{"macro_id":', 400, 'bad_request');
  run('run with a form body', `macro_id=${macro}`, 400, 'bad_request', 'application/x-www-form-urlencoded');
  run('run with args as an array', { macro_id: macro, args: [] }, 422, 'validation_failed');
  run('run with a numeric __cli_args__', { macro_id: macro, args: { __cli_args__: 5 } }, 422, 'validation_failed');
  run('run with an unknown field', { macro_id: macro, extra: 1 }, 422, 'validation_failed');
  run('run with a string macro_id', { macro_id: String(macro) }, 422, 'validation_failed');
  run('run with a __proto__ key in args', `{"macro_id":${macro},"args":{"__proto__":{"x":1}}}`, 400, 'bad_request');
  return list;
}

describe('every refusal answers its contract status and code and changes nothing', () => {
  test('the whole list', async () => {
    const list = attacks();
    // A truncated real APK (built by aapt) is not an APK either.
    const real = readFileSync(await buildApk({ package: 'org.example.cut', label: 'Cut', versionName: '1', versionCode: 1 }));
    list.push({ name: 'APK truncated', request: apk(idle, real.subarray(0, Math.floor(real.length / 2)), 'application/vnd.android.package-archive'), status: 422, code: 'invalid_apk' });
    const tables = await tablesOf(t.db.kysely, t.db.dialect);
    const before = await snapshot(t.db.kysely, tables);
    const appsBefore = (await t.app.inject({ url: `/api/hosted/devices/${idle}/apps`, headers: a.auth })).json();
    const wrong: string[] = [];
    for (const attack of list) {
      const res = await t.app.inject(attack.request());
      const code = res.headers['content-type']?.toString().startsWith('application/json') ? res.json().details?.code : undefined;
      if (res.statusCode !== attack.status || code !== attack.code) wrong.push(`${attack.name}: ${res.statusCode} ${code ?? res.body.slice(0, 120)} (want ${attack.status} ${attack.code})`);
    }
    expect(wrong).toEqual([]);
    expect(difference(before, await snapshot(t.db.kysely, tables))).toEqual([]);
    expect((await t.app.inject({ url: `/api/hosted/devices/${idle}/apps`, headers: a.auth })).json()).toEqual(appsBefore);
    expect(list.length).toBeGreaterThan(100);
  });
});

describe('races between the device lifecycle and a run start', () => {
  test('a delete that commits while a run is being started: the run is refused 404, nothing is created', async () => {
    // A ready device: its delete marks it and leaves the rest to the lifecycle job.
    const device = (await createCloudDevice(t.app, a, { name: 'Doomed' })).id as number;
    expect((await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${device}/start`, headers: a.auth })).statusCode).toBe(202);
    await expect.poll(() => stateOf(device), { timeout: 15_000 }).toBe('ready');
    // The run service's reads see the device; its transaction begins only after the delete committed.
    const lifecycle = t.app.modules.devices.services.lifecycle;
    const db: Db = {
      ...t.db,
      kysely: new Proxy(t.db.kysely, {
        get(target, property, receiver) {
          if (property !== 'transaction') {
            const value = Reflect.get(target, property, receiver);
            return typeof value === 'function' ? value.bind(target) : value;
          }
          return () => ({
            execute: async (fn: never) => {
              await lifecycle.remove({ userId: a.id }, { id: device });
              return target.transaction().execute(fn);
            },
          });
        },
      }),
    };
    const runs = cloudRunService({ config: { runsEnabled: true }, db, clock: t.clock });
    const ctx = { userId: a.id, keyId: null, sessionId: null, scopes: ['macros:run'] as const, requestId: 'race', clientAddress: '127.0.0.1' };
    await expect(runs.start(ctx, { device_id: device, macro_id: macro })).rejects.toMatchObject({ status: 404, code: 'not_found' });
    expect(await t.db.kysely.selectFrom('cloud_runs').select('id').where('device_id', '=', device).execute()).toEqual([]);
  });
});
