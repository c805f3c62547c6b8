// A run's trace ends in the transaction that ends the run (decisions.md §17): a run read as
// ended has its whole trace, ended at the run's own end time; a last batch that cannot be
// stored fails alone (a savepoint), so the run's end and the trace's end still commit, with a
// note; under RUN_TRACE=failures the trace goes with a run that ends finished, by the state the
// run records (a stop that landed turns a finished run stopped, and its trace is kept).
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ActionEnv, DEMO_APP_PACKAGE, frameOfScreen } from '../../../src/modules/devices/index.js';
import { finished } from '../../../src/modules/runs/outcome.js';
import { type RunTrace, RunTracing } from '../../../src/modules/runs/trace/run-tracing.js';
import { KnownPictures, readFrames, StepInserts, storeTraceEnd } from '../../../src/modules/runs/trace/store.js';
import { blockMacro, closeWorld, cloudDevice, ended, servedWorld, startedRun, type World } from './helpers/device-run-world.js';
import { insertHistoryRecord, newExecutionId } from './helpers/records.js';
import { removeTempDirs } from './helpers/runner.js';

let w: World;
beforeAll(async () => {
  w = await servedWorld();
});
afterAll(async () => {
  await closeWorld(w);
  removeTempDirs();
});

const traceRow = (pk: number) => w.t.db.kysely.selectFrom('run_traces').selectAll().where('execution_pk', '=', pk).executeTakeFirst();
const stepSeqs = async (pk: number) => (await w.t.db.kysely.selectFrom('run_trace_steps').select('seq').where('execution_pk', '=', pk).orderBy('seq').execute()).map((r) => Number(r.seq));

/** A step that touches no device: what the recorder keeps of it is all these tests look at. */
const env = { driver: {}, owner: { userId: 0 }, vision: {} } as unknown as ActionEnv;
const waitStep = (trace: RunTrace, ms: number) => trace.recorder.step({ action: 'wait', args: { ms } }, env, async () => undefined);

async function begun(tracing: RunTracing, runId: number) {
  const pk = await insertHistoryRecord(w.t.db.kysely, w.user.id, newExecutionId(), 'block');
  const trace = tracing.begin({ id: runId, user_id: w.user.id }, pk)!;
  expect(await trace.stored).toBe(pk);
  return { pk, trace };
}

test("through the run worker: the trace's end is the run's end, stored in one transaction with every step", async () => {
  const ok = { version: 1, steps: [{ type: 'open_app', package: DEMO_APP_PACKAGE }, { type: 'tap', element_id: 'row_beans' }, { type: 'key', key: 'BACK' }] };
  const fails = { version: 1, steps: [{ type: 'open_app', package: DEMO_APP_PACKAGE }, { type: 'tap', selector: { text: 'Nowhere to be seen' }, timeout_ms: 300 }] };
  for (const [program, state, steps] of [[ok, 'finished', 3], [fails, 'failed', 2]] as const) {
    const run = await startedRun(w, await cloudDevice(w), await blockMacro(w, program));
    expect((await ended(w, run.id)).state).toBe(state);
    const { finished_at } = await w.t.db.kysely.selectFrom('cloud_runs').select('finished_at').where('id', '=', run.id).executeTakeFirstOrThrow();
    const { id } = await w.t.db.kysely.selectFrom('executions').select('id').where('execution_id', '=', run.execution_id).executeTakeFirstOrThrow();
    const trace = await traceRow(Number(id));
    expect(Number(trace!.ended_at)).toBe(Number(finished_at));
    expect(await stepSeqs(Number(id))).toHaveLength(steps);
    // A failed run's last screen rides with the end.
    expect(trace!.final_frame === null).toBe(state === 'finished');
  }
});

test('a last batch that cannot be stored fails alone: the rest of the end transaction commits, the trace ends with a note saying which steps were lost', async () => {
  const warnings: { fields: object; message: string }[] = [];
  const tracing = new RunTracing({ db: w.t.db, clock: w.t.clock, settings: w.t.config.runTrace, log: { warn: (fields, message) => warnings.push({ fields, message }) } });
  const { pk, trace } = await begun(tracing, -201);
  await waitStep(trace, 1);
  await trace.recorder.flush();
  // Seq 2 is taken already: the last batch's insert fails on its key, on either try.
  await w.t.db.kysely.insertInto('run_trace_steps').values({ execution_pk: pk, seq: 2, body: '{"seq":2}' }).execute();
  await waitStep(trace, 2);
  await waitStep(trace, 3);
  const ending = await tracing.ending(-201, trace, finished(), null);
  await w.t.db.kysely.transaction().execute(async (trx) => {
    await trx.updateTable('executions').set({ error_message: 'written before the trace' }).where('id', '=', pk).execute();
    await ending!.store(trx, 'finished', 4242);
    await trx.updateTable('executions').set({ exit_code: 7 }).where('id', '=', pk).execute();
  });
  const history = await w.t.db.kysely.selectFrom('executions').select(['error_message', 'exit_code']).where('id', '=', pk).executeTakeFirstOrThrow();
  expect(history).toEqual({ error_message: 'written before the trace', exit_code: 7 });
  const row = await traceRow(pk);
  expect(Number(row!.ended_at)).toBe(4242);
  expect(JSON.parse(row!.notes)).toEqual([expect.stringMatching(/^steps 2 to 3 could not be stored: /)]);
  // Nothing of the failed batch stayed: seq 3 was undone with it.
  expect(await stepSeqs(pk)).toEqual([1, 2]);
  expect(warnings).toEqual([{ fields: expect.objectContaining({ run_id: -201 }), message: 'run trace: could not be finished' }]);
});

test('a picture this process remembers as stored but the sweep deleted is stored again by the second try, inside the end transaction', async () => {
  const tracing = new RunTracing({ db: w.t.db, clock: w.t.clock, settings: w.t.config.runTrace });
  const { pk } = await begun(tracing, -250);
  const frame = await frameOfScreen(await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 9, g: 99, b: 199 } } }).jpeg().toBuffer());
  const shared = { db: w.t.db.kysely, known: new KnownPictures(), inserts: new StepInserts() };
  shared.known.add([frame.id]);
  const problem = await w.t.db.kysely.transaction().execute((trx) => storeTraceEnd(trx, shared, pk, { steps: [], frames: [frame], framesCapped: false }, { endedAt: 777 }));
  expect(problem).toBeUndefined();
  expect((await readFrames(w.t.db.kysely, pk)).get(frame.id)?.equals(frame.jpeg)).toBe(true);
  expect(Number((await traceRow(pk))!.ended_at)).toBe(777);
});

describe('RUN_TRACE=failures', () => {
  test('the trace is deleted with the end of a run the store is told finished, and kept, ended, when the run records it stopped', async () => {
    const tracing = new RunTracing({ db: w.t.db, clock: w.t.clock, settings: { ...w.t.config.runTrace, mode: 'failures' } });
    for (const [runId, state, kept] of [[-300, 'finished', false], [-301, 'stopped', true], [-302, 'failed', true]] as const) {
      const { pk, trace } = await begun(tracing, runId);
      await waitStep(trace, 5);
      // The executor saw the macro finish; a stop may still turn the end the run records.
      const ending = await tracing.ending(runId, trace, finished(), null);
      await w.t.db.kysely.transaction().execute((trx) => ending!.store(trx, state, 5000));
      const row = await traceRow(pk);
      expect(row === undefined, state).toBe(!kept);
      if (kept) {
        expect(Number(row!.ended_at)).toBe(5000);
        expect(await stepSeqs(pk)).toEqual([1]);
      }
    }
  });
});
