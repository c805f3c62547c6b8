// Run traces in the database (decisions.md §17, migration 0027) through the app's own run
// worker: a block run's steps and frames stored, a failed run's final frame and UI tree, the
// trace deleted with the run's history record (as its logs are), the leased retention sweep,
// and RUN_TRACE=failures and off.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/index.js';
import { RunTracing } from '../../../src/modules/runs/trace/run-tracing.js';
import { deleteUnshownPictures, KnownPictures, readFrames, traceOfRun, traceWriter } from '../../../src/modules/runs/trace/store.js';
import { sweepTraces } from '../../../src/modules/runs/trace/sweeper.js';
import { blockMacro, closeWorld, cloudDevice, ended, servedWorld, startedRun, type World } from './helpers/device-run-world.js';
import { insertHistoryRecord, newExecutionId } from './helpers/records.js';
import { removeTempDirs } from './helpers/runner.js';

const OK = { version: 1, steps: [{ type: 'open_app', package: DEMO_APP_PACKAGE }, { type: 'tap', element_id: 'row_beans' }, { type: 'key', key: 'BACK' }] };
const FAILS = { version: 1, steps: [{ type: 'open_app', package: DEMO_APP_PACKAGE }, { type: 'tap', selector: { text: 'Nowhere to be seen' }, timeout_ms: 300 }] };

async function runTo(w: World, program: unknown) {
  const run = await startedRun(w, await cloudDevice(w), await blockMacro(w, program));
  const done = await ended(w, run.id);
  const history = await w.t.db.kysely.selectFrom('executions').select('id').where('execution_id', '=', run.execution_id).executeTakeFirstOrThrow();
  return { run, done, pk: Number(history.id) };
}

const rows = async (w: World, pk: number) => ({
  trace: await w.t.db.kysely.selectFrom('run_traces').selectAll().where('execution_pk', '=', pk).executeTakeFirst(),
  steps: (await w.t.db.kysely.selectFrom('run_trace_steps').select('body').where('execution_pk', '=', pk).orderBy('seq').execute()).map((r) => JSON.parse(r.body)),
  frames: await w.t.db.kysely
    .selectFrom('run_trace_frames as f')
    .innerJoin('run_trace_pictures as p', 'p.frame_id', 'f.frame_id')
    .select(['f.frame_id', 'p.size_bytes'])
    .where('f.execution_pk', '=', pk)
    .execute(),
});

const pictureIds = async (w: World) => (await w.t.db.kysely.selectFrom('run_trace_pictures').select('frame_id').execute()).map((r) => r.frame_id).sort();

describe('RUN_TRACE=on (default)', () => {
  let w: World;
  beforeAll(async () => (w = await servedWorld()));
  afterAll(async () => {
    await closeWorld(w);
    removeTempDirs();
  });

  test('a finished block run: every step stored with its frames, ended, no final frame', async () => {
    const { done, pk } = await runTo(w, OK);
    expect(done.state).toBe('finished');
    const { trace, steps, frames } = await rows(w, pk);
    expect(trace).toMatchObject({ frames_capped: 0, final_frame: null, final_ui_tree: null });
    expect(trace!.ended_at).not.toBeNull();
    expect(steps.map((s) => s.action)).toEqual(['app_open', 'tap', 'key']);
    expect(frames.length).toBeGreaterThan(1);
    const named = new Set(steps.flatMap((s) => [s.frame_before, s.frame_after]));
    expect(frames.every((f) => named.has(f.frame_id))).toBe(true);
    // Never a credential: the trace holds no run token, key or password-shaped URL.
    const stored = JSON.stringify({ trace, steps });
    expect(stored).not.toMatch(/svr_[0-9a-f]{64}|svc_[0-9a-f]{48}/);
  });

  test('a failed run: the last frame and UI tree, the failing step last', async () => {
    const { done, pk } = await runTo(w, FAILS);
    expect(done.state).toBe('failed');
    const { trace, steps, frames } = await rows(w, pk);
    expect(trace!.final_frame).toMatch(/^fr_[0-9a-f]{24}$/);
    expect(frames.map((f) => f.frame_id)).toContain(trace!.final_frame);
    const tree = JSON.parse(trace!.final_ui_tree!);
    expect(tree.length).toBeGreaterThan(3);
    expect(tree[0]).toMatchObject({ element_id: expect.any(String), bounds: expect.any(Object), center: expect.any(Object) });
    expect(steps.at(-1)).toMatchObject({ action: 'tap', outcome: 'error', error: { code: 'element_not_found' } });
  });

  test('a batch the store refuses is noted in the trace, and the steps stored before stay', async () => {
    const { pk } = await runTo(w, OK);
    const writer = traceWriter(w.t.db.kysely, pk, () => w.t.clock.now());
    const [first] = (await rows(w, pk)).steps;
    // The same seq again: the store refuses the batch as a whole.
    await expect(writer.write({ steps: [first], frames: [], framesCapped: false })).rejects.toThrow();
    await writer.note('steps 1 to 1 could not be stored: a test');
    const { trace, steps } = await rows(w, pk);
    expect(JSON.parse(trace!.notes)).toEqual(['steps 1 to 1 could not be stored: a test']);
    expect(steps).toHaveLength(3);
  });

  test('a batch of steps is stored as written: each body the JSON text of its step, numbered by its seq', async () => {
    const pk = await insertHistoryRecord(w.t.db.kysely, w.user.id, newExecutionId(), 'block');
    const tracing = new RunTracing({ db: w.t.db, clock: w.t.clock, settings: w.t.config.runTrace });
    expect(await tracing.begin({ id: -103, user_id: w.user.id }, pk)!.stored).toBe(pk);
    const writer = traceWriter(w.t.db.kysely, pk, () => w.t.clock.now());
    // What a step may hold: other scripts, escapes, quotes, fractions, large and negative numbers, nesting.
    const odd = { seq: 7, at_ms: 1.5, duration_ms: 0, action: 'type', args: { text: 'Grüße "ok" \\ 東京 😀\n\t\u0001', x: -0.25, big: 1e21, list: [1, 'two', null, true] }, outcome: 'ok', interrupts: ['rating dialog'] };
    const steps = [{ seq: 5, at_ms: 0, duration_ms: 3, action: 'tap', args: {}, outcome: 'ok', interrupts: [] }, odd];
    await writer.write({ steps: steps as never, frames: [], framesCapped: false });
    const stored = await w.t.db.kysely.selectFrom('run_trace_steps').select(['seq', 'body']).where('execution_pk', '=', pk).orderBy('seq').execute();
    expect(stored.map((r) => [Number(r.seq), r.body])).toEqual(steps.map((s) => [s.seq, JSON.stringify(s)]));
  });

  test("deleting the run's history record deletes its trace, steps and frames, as its logs", async () => {
    const { pk } = await runTo(w, OK);
    expect((await rows(w, pk)).steps.length).toBe(3);
    await w.t.db.kysely.deleteFrom('executions').where('id', '=', pk).execute();
    expect(await rows(w, pk)).toEqual({ trace: undefined, steps: [], frames: [] });
  });

  test('a screen shown by many runs is stored once: the second run of a macro stores no picture again', async () => {
    const first = await runTo(w, OK);
    const before = await pictureIds(w);
    const second = await runTo(w, OK);
    const shown = (await rows(w, second.pk)).frames.map((f) => f.frame_id);
    expect(shown.length).toBeGreaterThan(1);
    // The same screens, the same pictures: the second trace names them and adds none.
    expect(shown.every((id) => before.includes(id))).toBe(true);
    expect(await pictureIds(w)).toEqual(before);
    expect((await rows(w, first.pk)).frames.map((f) => f.frame_id).sort()).toEqual([...shown].sort());
    // A picture a trace shows cannot be deleted from under it.
    await expect(w.t.db.kysely.deleteFrom('run_trace_pictures').where('frame_id', '=', shown[0]!).execute()).rejects.toThrow();
    // Deleting one trace keeps the pictures the other still shows, readable through the route's store.
    await w.t.db.kysely.deleteFrom('executions').where('id', '=', first.pk).execute();
    expect((await rows(w, second.pk)).frames.map((f) => f.frame_id).sort()).toEqual([...shown].sort());
  });

  test("a trace's row is written beside the run: stored answers once it is there; one that cannot be written leaves the run untraced, said once", async () => {
    const warnings: string[] = [];
    const tracing = new RunTracing({ db: w.t.db, clock: w.t.clock, settings: w.t.config.runTrace, log: { warn: (_fields, message) => warnings.push(message) } });
    const finished = { state: 'finished' as const, exitCode: null, errorMessage: null, stateMessage: null };
    // The device RPC of a Python run takes a trace over from its row: the row is there when `stored` answers.
    const pk = await insertHistoryRecord(w.t.db.kysely, w.user.id, newExecutionId(), 'block');
    const trace = tracing.begin({ id: -101, user_id: w.user.id }, pk)!;
    expect(await trace.stored).toBe(pk);
    expect(await traceOfRun(w.t.db.kysely, -101)).toMatchObject({ executionPk: pk, ended: false, nextSeq: 1 });
    await tracing.finish(-101, trace, finished, null);
    expect((await rows(w, pk)).trace).toMatchObject({ run_id: -101, ended_at: expect.anything() });
    // No history record to hang it off: the row is refused, the run goes on, nothing is written, and finishing says nothing more.
    const lost = tracing.begin({ id: -102, user_id: w.user.id }, 2_000_000_000)!;
    expect(await lost.stored).toBeUndefined();
    await tracing.finish(-102, lost, finished, null);
    expect(await traceOfRun(w.t.db.kysely, -102)).toBeUndefined();
    expect(warnings).toEqual(['run trace: could not be started; the run goes on untraced']);
  });

  test('a picture swept after its writer stored it is stored again: the retry asks the database, not its memory', async () => {
    const first = await runTo(w, OK);
    const second = await runTo(w, OK);
    const jpegs = await readFrames(w.t.db.kysely, first.pk);
    expect(jpegs.size).toBeGreaterThan(1);
    // The process remembers the pictures as stored; then no trace shows them (this world's
    // earlier runs showed them too) and the sweep deletes them.
    const known = new KnownPictures();
    known.add([...jpegs.keys()]);
    await w.t.db.kysely.deleteFrom('run_trace_frames').execute();
    expect(await deleteUnshownPictures(w.t.db.kysely, 1000)).toBeGreaterThanOrEqual(jpegs.size);
    const writer = traceWriter(w.t.db.kysely, second.pk, () => w.t.clock.now(), known);
    await writer.write({ steps: [], frames: [...jpegs].map(([id, jpeg]) => ({ id, jpeg })), framesCapped: false });
    expect((await rows(w, second.pk)).frames.map((f) => f.frame_id).sort()).toEqual([...jpegs.keys()].sort());
    expect(await readFrames(w.t.db.kysely, second.pk)).toEqual(jpegs);
  });

  test("the sweep keeps the pictures a live trace shows and deletes the ones only an expired trace showed", async () => {
    // Only this run goes to the kettle's page: no other trace of this world shows it.
    const old = await runTo(w, { version: 1, steps: [{ type: 'open_app', package: DEMO_APP_PACKAGE }, { type: 'tap', element_id: 'row_kettle' }] });
    const fresh = await runTo(w, OK);
    // The failed run's trace is older than RUN_TRACE_DAYS (the clock stays: the account's trial would lapse).
    await w.t.db.kysely.updateTable('run_traces').set({ created_at: w.t.clock.now() - 15 * 86_400_000 }).where('execution_pk', '=', old.pk).execute();
    const keep = (await rows(w, fresh.pk)).frames.map((f) => f.frame_id);
    const onlyOld = (await rows(w, old.pk)).frames.map((f) => f.frame_id).filter((id) => !keep.includes(id));
    expect(onlyOld.length).toBeGreaterThan(0);
    const deps = { db: w.t.db, clock: w.t.clock, days: 14, log: { warn: () => undefined } };
    w.t.clock.advance(60 * 60_000);
    expect(await sweepTraces(deps, 'process-c', 60 * 60_000)).toBe(1);
    expect((await rows(w, old.pk)).trace).toBeUndefined();
    const left = await pictureIds(w);
    expect(keep.every((id) => left.includes(id))).toBe(true);
    expect(onlyOld.some((id) => left.includes(id))).toBe(false);
    expect((await rows(w, fresh.pk)).frames.map((f) => f.frame_id).sort()).toEqual([...keep].sort());
  });

  test('the sweep deletes traces older than RUN_TRACE_DAYS, one process a round', async () => {
    const { pk } = await runTo(w, OK);
    const log = { warn: () => undefined };
    const deps = { db: w.t.db, clock: w.t.clock, days: 14, log };
    // Another process's round holds the lease now: this one does nothing.
    w.t.clock.advance(13 * 86_400_000);
    expect(await sweepTraces(deps, 'process-a', 60_000)).toBe(0);
    expect(await sweepTraces(deps, 'process-b', 60_000)).toBeNull();
    expect((await rows(w, pk)).trace).toBeDefined();
    w.t.clock.advance(2 * 86_400_000);
    expect(await sweepTraces(deps, 'process-b', 60_000)).toBeGreaterThanOrEqual(1);
    expect(await rows(w, pk)).toEqual({ trace: undefined, steps: [], frames: [] });
    // Every trace of this world has expired: no trace shows a picture, and the round deleted them all.
    expect(await w.t.db.kysely.selectFrom('run_traces').select('execution_pk').execute()).toEqual([]);
    expect(await pictureIds(w)).toEqual([]);
  });

});

describe('RUN_TRACE=failures and off', () => {
  let failures: World;
  let off: World;
  beforeAll(async () => {
    failures = await servedWorld({ RUN_TRACE: 'failures' });
    off = await servedWorld({ RUN_TRACE: 'off' });
  });
  afterAll(async () => {
    await closeWorld(failures);
    await closeWorld(off);
    removeTempDirs();
  });

  test('failures: a finished run keeps no trace, a failed one does', async () => {
    const finished = await runTo(failures, OK);
    expect(finished.done.state).toBe('finished');
    expect(await rows(failures, finished.pk)).toEqual({ trace: undefined, steps: [], frames: [] });
    const failed = await runTo(failures, FAILS);
    expect(failed.done.state).toBe('failed');
    const kept = await rows(failures, failed.pk);
    expect(kept.steps.length).toBe(2);
    expect(kept.trace!.final_frame).not.toBeNull();
  });

  test('off: no trace at all', async () => {
    const failed = await runTo(off, FAILS);
    expect(failed.done.state).toBe('failed');
    expect(await rows(off, failed.pk)).toEqual({ trace: undefined, steps: [], frames: [] });
  });
});
