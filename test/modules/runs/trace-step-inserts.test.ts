// A trace batch's steps insert is compiled once per batch size and shared by a process's
// writers (store.ts, StepInserts): writers of different traces, batches of different sizes,
// each trace still stores exactly its own steps, and each size's statement is built once.
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { RunTracing } from '../../../src/modules/runs/trace/run-tracing.js';
import { KnownPictures, StepInserts, traceWriter } from '../../../src/modules/runs/trace/store.js';
import { closeWorld, world, type World } from './helpers/device-run-world.js';
import { insertHistoryRecord, newExecutionId } from './helpers/records.js';
import { removeTempDirs } from './helpers/runner.js';

let w: World;
beforeAll(async () => (w = await world()));
afterAll(async () => {
  await closeWorld(w);
  removeTempDirs();
});

test('writers sharing compiled inserts store each trace its own steps, whatever the batch sizes, and build each size once', async () => {
  const tracing = new RunTracing({ db: w.t.db, clock: w.t.clock, settings: w.t.config.runTrace });
  const pks = [await insertHistoryRecord(w.t.db.kysely, w.user.id, newExecutionId(), 'block'), await insertHistoryRecord(w.t.db.kysely, w.user.id, newExecutionId(), 'block')];
  for (const [i, pk] of pks.entries()) expect(await tracing.begin({ id: -110 - i, user_id: w.user.id }, pk)!.stored).toBe(pk);
  const inserts = new StepInserts();
  const built = vi.spyOn(w.t.db.kysely, 'insertInto');
  const writers = pks.map((pk) => traceWriter(w.t.db.kysely, pk, () => w.t.clock.now(), new KnownPictures(), inserts));
  const step = (seq: number, who: number) => ({ seq, at_ms: seq, duration_ms: 1, action: 'tap', args: { who }, outcome: 'ok', interrupts: [] });
  const seq = [0, 0];
  for (const [writer, size] of [[0, 3], [1, 3], [0, 1], [1, 2], [0, 3], [1, 1]] as const) {
    const batch = Array.from({ length: size }, () => step(++seq[writer]!, writer));
    await writers[writer]!.write({ steps: batch as never, frames: [], framesCapped: false });
  }
  for (const [i, pk] of pks.entries()) {
    const stored = await w.t.db.kysely.selectFrom('run_trace_steps').select(['seq', 'body']).where('execution_pk', '=', pk).orderBy('seq').execute();
    expect(stored.map((r) => Number(r.seq))).toEqual(Array.from({ length: seq[i]! }, (_, k) => k + 1));
    expect(stored.every((r) => (JSON.parse(r.body) as { args: { who: number } }).args.who === i)).toBe(true);
  }
  // Sizes 3, 1 and 2: three inserts built, each size's statement reused after.
  expect(built.mock.calls.filter(([table]) => table === 'run_trace_steps')).toHaveLength(3);
  built.mockRestore();
});
