// The batched run start (the scheduler's start job, issue 34 point 5): every start in a batch
// is answered as its own `POST …/run` would be (its run, or the refusal with its code, in the
// contract's order), and a started run is written as a single start writes it: the run, its
// pinned bundle, its history record and both counters.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { workerContext } from '../../../src/core/context.js';
import { AppError } from '../../../src/core/errors.js';
import { storedRunCount } from '../../../src/modules/executions/run-counts.js';
import { createDevice, createMacro } from '../../helpers/resources.js';
import { signUp } from '../../helpers/users.js';
import { blockMacro, closeWorld, cloudDevice, getRun, historyOf, LONG, startedRun, WALK, world, type World } from './helpers/device-run-world.js';
import { removeTempDirs } from './helpers/runner.js';

const codeOf = (answer: { run: unknown } | { error: unknown }) => ('error' in answer ? (answer.error instanceof AppError ? answer.error.code : String(answer.error)) : 'started');

describe('startMany', () => {
  let w: World;
  beforeAll(async () => (w = await world()));
  afterAll(async () => {
    await closeWorld(w);
    removeTempDirs();
  });

  test('each start answered as its own start would be; the started ones written whole', async () => {
    const runs = w.t.app.modules.runs.services.runs;
    const macro = await blockMacro(w, WALK);
    const unsynced = (await createMacro(w.t.app, w.user, { name: 'Never synced', kind: 'python' })).id as number;
    const [free, second, busy] = [await cloudDevice(w), await cloudDevice(w), await cloudDevice(w)];
    const local = (await createDevice(w.t.app, w.user, { name: 'My phone', port: 5555 })).id as number;
    const other = await signUp(w.t.app);
    const othersDevice = (await w.t.app.inject({ method: 'POST', url: '/api/hosted/devices', headers: other.auth, payload: { name: 'Theirs' } })).json().id as number;
    const active = await startedRun(w, busy, await blockMacro(w, LONG));
    const countBefore = await storedRunCount(w.t.db.kysely, w.user.id);

    const ctx = workerContext(w.user.id, 'test:batch');
    const answers = await runs.startMany([
      { ctx, input: { device_id: free, macro_id: macro } },
      { ctx, input: { device_id: free, macro_id: macro } },
      { ctx, input: { device_id: second, macro_id: unsynced } },
      { ctx, input: { device_id: second, macro_id: 9_999_999 } },
      { ctx, input: { device_id: othersDevice, macro_id: macro } },
      { ctx, input: { device_id: local, macro_id: macro } },
      { ctx, input: { device_id: busy, macro_id: macro } },
      { ctx: workerContext(other.id, 'test:batch'), input: { device_id: othersDevice, macro_id: macro } },
    ]);
    expect(answers.map(codeOf)).toEqual(['started', 'device_busy', 'macro_not_runnable', 'not_found', 'not_found', 'not_a_cloud_device', 'device_busy', 'not_found']);

    // The started run is the route's record of it, and is written as a single start writes it.
    const started = (answers[0] as { run: { id: number; execution_id: string } }).run;
    expect(started).toEqual(await getRun(w, started.id));
    expect(started).toMatchObject({ state: 'launching', device_id: free, macro_id: macro });
    expect(await historyOf(w, started.execution_id)).toMatchObject({ status: 'running', device_id: free, macro_id: macro, execution_type: 'block' });
    expect(await w.t.db.kysely.selectFrom('cloud_run_bundles').select('run_id').where('run_id', '=', started.id).execute()).toHaveLength(1);
    expect(await storedRunCount(w.t.db.kysely, w.user.id)).toBe(countBefore + 1);
    const counted = await w.t.db.kysely.selectFrom('devices').select(['id', 'run_count']).where('id', 'in', [free, second, busy]).orderBy('id').execute();
    expect(counted.map((d) => Number(d.run_count))).toEqual([1, 0, 1]);
    // Nothing written for the refused ones.
    expect(await w.t.db.kysely.selectFrom('cloud_runs').select('id').where('device_id', 'in', [second, othersDevice, local]).execute()).toEqual([]);
    expect((await getRun(w, active.id)).state).toMatch(/launching|running/);
  });

  test('many owners and devices in one batch: every run started, each owner counted', async () => {
    const runs = w.t.app.modules.runs.services.runs;
    const owners = await Promise.all([signUp(w.t.app), signUp(w.t.app), signUp(w.t.app)]);
    const starts = [];
    for (const owner of owners) {
      const macro = (await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: owner.auth, payload: { name: 'Tick', kind: 'block', blocks: WALK } })).json().id as number;
      for (let i = 0; i < 4; i++) {
        const device = (await w.t.app.inject({ method: 'POST', url: '/api/hosted/devices', headers: owner.auth, payload: { name: `Phone ${i}` } })).json().id as number;
        starts.push({ ctx: workerContext(owner.id, 'test:many'), input: { device_id: device, macro_id: macro } });
      }
    }
    const answers = await runs.startMany(starts);
    expect(answers.map(codeOf)).toEqual(starts.map(() => 'started'));
    const ids = answers.map((a) => (a as { run: { id: number; device_id: number } }).run);
    expect(ids.map((r) => r.device_id)).toEqual(starts.map((s) => s.input.device_id));
    for (const owner of owners) expect(await storedRunCount(w.t.db.kysely, owner.id, 'running')).toBe(4);
  });
});

describe('startMany with RUNS_ENABLED=false', () => {
  let w: World;
  beforeAll(async () => (w = await world({ RUNS_ENABLED: 'false' })));
  afterAll(async () => {
    await closeWorld(w);
    removeTempDirs();
  });

  test('503 runs_unavailable after the 404s and 409s, as a single start answers', async () => {
    const runs = w.t.app.modules.runs.services.runs;
    const macro = await blockMacro(w, WALK);
    const device = await cloudDevice(w);
    const ctx = workerContext(w.user.id, 'test:off');
    const answers = await runs.startMany([
      { ctx, input: { device_id: device, macro_id: macro } },
      { ctx, input: { device_id: device + 1000, macro_id: macro } },
    ]);
    expect(answers.map(codeOf)).toEqual(['runs_unavailable', 'not_found']);
    expect((await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${device}/run`, headers: w.headers, payload: { macro_id: macro } })).json().details.code).toBe('runs_unavailable');
  });
});
