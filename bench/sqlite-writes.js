#!/usr/bin/env node
// @ts-check
// SQLite's connection as the service opens it, against how it was opened before (both in one
// run, alternating): prepared statements kept for reuse (sqlite-dialect.ts) and the write-ahead
// log checkpointed by a thread of its own (background-checkpoints.ts), against every query
// prepared afresh (Kysely's default) and checkpoints run inline by the commit that reaches
// 1000 pages (SQLite's default).
// 1. A run trace's writes, the heaviest a cloud run makes: the trace's row, then one batch of
//    52 steps with its frames and the trace's end, in one transaction (runs/trace/store.ts's
//    storeTraceEnd, as the run's end transaction stores it).
// 2. The 50-step block macro on `sim` as whole cloud runs (RUN_TRACE=on): what a user waits.
//
// Usage (after `npm run build`): node bench/sqlite-writes.js [--writes N] [--rounds N]
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { START_DELAY_MS } from '../dist/db/background-checkpoints.js';
import { createTrace, KnownPictures, StepInserts, storeTraceEnd } from '../dist/modules/runs/trace/store.js';
import { openBenchEngine } from './lib/engine.js';
import { fiftyStepCloudRunner } from './lib/fifty-step-macro.js';
import { benchTarget, cleanupStack, median, percentile, printTable, ratioOfMedians, round, runMain } from './lib.js';

/** The connection before: each query prepared afresh, checkpoints inline. */
const BEFORE = /** @type {const} */ ({ checkpoints: 'inline', statementsKept: 0 });

/** A step as a block run's trace keeps it: a tap on an element, with its frames. */
const step = (/** @type {number} */ seq) => ({
  seq,
  at_ms: seq * 9,
  duration_ms: 3,
  action: 'tap',
  args: { selector: { resource_id: 'row_beans' } },
  outcome: /** @type {const} */ ('ok'),
  interrupts: [],
  element: { text: 'Beans', resource_id: 'row_beans', desc: '', class: 'android.widget.TextView', bounds: { left: 0, top: 300, right: 1080, bottom: 420 } },
  block_path: `steps.1.steps.${seq % 10}`,
  frame_before: `fr_${'a'.repeat(24)}`,
  frame_after: `fr_${'b'.repeat(24)}`,
});
const FRAMES = [
  { id: `fr_${'a'.repeat(24)}`, jpeg: Buffer.alloc(30_000, 1) },
  { id: `fr_${'b'.repeat(24)}`, jpeg: Buffer.alloc(30_000, 2) },
];

/**
 * A database to write traces into; `write()` writes one trace (its row, then its one batch)
 * and answers the ms it took.
 * @param {string} label
 * @param {ReturnType<typeof cleanupStack>} cleanups
 * @param {typeof BEFORE} [sqlite]
 */
async function traceWrites(label, cleanups, sqlite) {
  const { db } = await openBenchEngine(benchTarget('sqlite', label), { cleanups, sqlite, redis: false });
  // Traces hang off a run's history record; the foreign keys are not what is measured.
  await sql`pragma foreign_keys = off`.execute(db.kysely);
  const shared = { db: db.kysely, known: new KnownPictures(), inserts: new StepInserts() };
  let pk = 0;
  return {
    async write() {
      pk += 1;
      const started = performance.now();
      await createTrace(db.kysely, { executionPk: pk, userId: 1, runId: pk, startedMs: Date.now(), now: Date.now() });
      const batch = { steps: Array.from({ length: 52 }, (_, i) => step(i + 1)), frames: FRAMES, framesCapped: false };
      // As the run's end transaction stores its trace's end (run-transitions.ts).
      await db.kysely.transaction().execute((trx) => storeTraceEnd(trx, shared, pk, batch, { endedAt: Date.now() }));
      return performance.now() - started;
    },
  };
}

async function main() {
  const { values } = parseArgs({ options: { writes: { type: 'string', default: '3000' }, rounds: { type: 'string', default: '100' } } });
  const writes = Number(values.writes);
  const rounds = Number(values.rounds);
  const cleanups = cleanupStack();
  try {
    // 1. Trace writes, alternating, once the service's checkpoint thread has started.
    const writers = { before: await traceWrites('sqlite-writes-before', cleanups, BEFORE), now: await traceWrites('sqlite-writes-now', cleanups) };
    await new Promise((resolve) => setTimeout(resolve, START_DELAY_MS + 200));
    /** @type {{ before: number[], now: number[] }} */
    const written = { before: [], now: [] };
    for (let i = 0; i < writes * 2; i++) {
      const kind = i % 2 === 0 ? 'before' : 'now';
      written[kind].push(await writers[kind].write());
    }
    // 2. Whole cloud runs, alternating.
    const runners = {
      before: await fiftyStepCloudRunner('sqlite', 'sqlite-runs-before', { RUN_TRACE: 'on' }, cleanups, { sqlite: BEFORE }),
      now: await fiftyStepCloudRunner('sqlite', 'sqlite-runs-now', { RUN_TRACE: 'on' }, cleanups),
    };
    await runners.before.run();
    await runners.now.run();
    /** @type {{ before: number[], now: number[] }} */
    const ran = { before: [], now: [] };
    for (let i = 0; i < rounds * 2; i++) {
      const kind = i % 2 === 0 ? 'before' : 'now';
      ran[kind].push((await runners[kind].run()).wall);
    }

    console.log(`\nSQLite connection benchmark: ${writes} trace writes and ${rounds} cloud runs each way, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const sum = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0);
    /** @param {number[]} xs */
    const row = (xs) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return [round(sum(xs) / xs.length, 3), round(median(xs), 3), round(percentile(sorted, 99), 3), round(sorted.at(-1) ?? NaN, 2)].map(String);
    };
    printTable([['trace write (row + 52-step batch)', 'mean ms', 'median ms', 'p99 ms', 'max ms'], ['before: prepared afresh, checkpoints inline', ...row(written.before)], ['now: statements kept, checkpoints in the background', ...row(written.now)]]);
    const writeRatio = sum(written.now) / sum(written.before);
    console.log(`\nnow / before, mean trace write (the time in all): ${round(writeRatio, 3)}; p99 ${round(percentile([...written.now].sort((a, b) => a - b), 99) / percentile([...written.before].sort((a, b) => a - b), 99), 3)}`);
    printTable([['whole cloud run, 50 steps, traced', 'mean ms', 'median ms', 'p99 ms', 'max ms'], ['before', ...row(ran.before)], ['now', ...row(ran.now)]]);
    const runRatio = ratioOfMedians(ran.now, ran.before);
    console.log(`\nnow / before, whole cloud runs (medians): ${round(runRatio.ratio, 3)} (95 % interval ${round(runRatio.low, 3)}–${round(runRatio.high, 3)})`);
  } finally {
    await cleanups.run();
  }
}

runMain('sqlite-writes.js', main);
