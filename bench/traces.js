#!/usr/bin/env node
// @ts-check
// Run traces (issue 32, decisions.md §17, "Cost"):
// 1. A 50-step block macro on `sim`, traced at most 1.10× untraced: the block interpreter of
//    the real app built from dist/, on one simulated device, rounds alternating untraced and
//    traced side by side in one run; the traced rounds record through the catalogue's
//    TraceRecorder into the real trace store (frames and steps written, batched, as a run's).
//    The same macro is also measured as whole cloud runs (POST …/run until the run has ended,
//    through the run worker, as a user waits for it) on two apps side by side, one with
//    RUN_TRACE=on and one with RUN_TRACE=off, runs alternating.
// 2. Stored trace bytes (frames and step JSON) per device-minute on Corner Shop and Daily Feed,
//    at most 5 MB: a browsing macro on each app, traced, its stored bytes over its run time.
//
// Usage (after `npm run build`): node bench/traces.js [--engine sqlite|postgres] [--rounds N]
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { START_DELAY_MS } from '../dist/db/background-checkpoints.js';
import { TraceRecorder } from '../dist/modules/devices/index.js';
import { runBlockProgram } from '../dist/modules/runs/blocks/interpreter.js';
import { parseBlockProgram } from '../dist/modules/runs/blocks/validate.js';
import { createTrace, KnownPictures, StepInserts, traceWriter } from '../dist/modules/runs/trace/store.js';
import { benchAppDeps, benchConfig, listenLocally, openBenchEngine, readySimPhone, startBenchApp } from './lib/engine.js';
import { fiftyStepCloudRunner, SHOP, SHOP_PASS } from './lib/fifty-step-macro.js';
import { benchTarget, checkEngine, cleanupStack, median, ratioOfMedians, request, round, trimmedMean } from './lib.js';

const GOAL_RATIO = 1.1;
const GOAL_MB_PER_MINUTE = 5;

/**
 * The ratio against the goal, with its 95 % bootstrap interval: PASS when the ratio is under
 * the goal, and "met" only when the whole interval is.
 * @param {{ ratio: number, low: number, high: number }} r
 */
const verdict = (r) =>
  `${round(r.ratio, 3)} (95 % interval ${round(r.low, 3)}–${round(r.high, 3)}; goal ≤ ${GOAL_RATIO}): ${r.ratio <= GOAL_RATIO ? 'PASS' : 'MISS'}${r.ratio <= GOAL_RATIO ? (r.high <= GOAL_RATIO ? ', the whole interval under the goal' : ', but the interval reaches past the goal') : ''}`;
const FEED = 'com.example.feed';

const FIFTY = { version: 1, steps: [{ type: 'repeat', times: 5, steps: SHOP_PASS }] };

/** A reader of Daily Feed: scroll, open a post, save it, back; the rating dialog handled as an interrupt. */
const FEED_READER = {
  version: 1,
  interrupts: [{ when: { text: 'Not now' }, do: { type: 'tap' } }],
  steps: [
    { type: 'open_app', package: FEED },
    { type: 'wait_for', selector: { resource_id: 'post_row', index: 0 }, timeout_ms: 10_000 },
    {
      type: 'repeat',
      times: 8,
      steps: [
        { type: 'swipe', from: { x: 540, y: 1900 }, to: { x: 540, y: 900 }, ms: 300 },
        { type: 'wait', ms: 400 },
        { type: 'tap', selector: { resource_id: 'post_row', index: 1 } },
        { type: 'wait_for', selector: { resource_id: 'save' }, timeout_ms: 5000 },
        { type: 'wait', ms: 800 },
        { type: 'key', key: 'BACK' },
        { type: 'wait_for', selector: { resource_id: 'post_row', index: 0 }, timeout_ms: 5000 },
      ],
    },
    { type: 'close_app', package: FEED },
  ],
};
const SHOP_SHOPPER = {
  version: 1,
  steps: [
    { type: 'open_app', package: SHOP },
    { type: 'wait_for', selector: { text: 'Corner Shop' }, timeout_ms: 5000 },
    { type: 'repeat', times: 8, steps: [...SHOP_PASS.slice(0, 4), { type: 'wait', ms: 600 }, ...SHOP_PASS.slice(4, 8), { type: 'wait', ms: 600 }] },
    { type: 'close_app', package: SHOP },
  ],
};

async function main() {
  const { values } = parseArgs({ options: { engine: { type: 'string', default: 'sqlite' }, rounds: { type: 'string', default: '6' } } });
  checkEngine(values.engine);
  const rounds = Number(values.rounds);
  const target = benchTarget(values.engine, 'traces');
  const cleanups = cleanupStack();
  try {
    const { db, redis } = await openBenchEngine(target, { cleanups });
    const app = await startBenchApp(benchAppDeps(benchConfig(target, { SIM_BOOT_MS: '20' }), db, redis), cleanups);
    const base = await listenLocally(app);
    const { auth, userId, driver } = await readySimPhone(app, base, { label: 'traces', suffix: target.suffix, deviceName: 'Traced phone' }, cleanups);
    // Traces hang off a run's history record: local runs reported for the purpose.
    const macro = await request(base, 'POST', '/api/macros', { body: { name: 'Traced', kind: 'python' }, headers: auth });
    const local = await request(base, 'POST', '/api/emulator/devices', { body: { name: 'Desk', port: 5555 }, headers: auth });
    let runs = 0;
    // As the runs module's RunTracing does: recorders of one process share the frames drawn from
    // sim screens, and their writers the pictures known to be stored and the compiled inserts.
    const drawnFrames = new Map();
    const knownPictures = new KnownPictures();
    const stepInserts = new StepInserts();
    const newTrace = async () => {
      runs += 1;
      const body = { execution_id: `bench-trace-${target.suffix}-${runs}`, status: 'running', macro_id: macro.id, device_id: local.id, execution_type: 'python', started_at: new Date().toISOString() };
      const history = await request(base, 'POST', '/api/executions/report', { body, headers: auth });
      await createTrace(db.kysely, { executionPk: history.id, userId, runId: -runs, startedMs: Date.now(), now: Date.now() });
      const recorder = new TraceRecorder({ writer: traceWriter(db.kysely, history.id, () => Date.now(), knownPictures, stepInserts), startedMs: Date.now(), maxFrames: 500, drawnFrames });
      return { pk: history.id, recorder };
    };
    const images = app.modules.images.services.screen;
    /** @param {unknown} program @param {TraceRecorder | undefined} tracer */
    /** CPU ms of the process (every thread) per interpreter run, traced and untraced: steadier than wall time on a busy machine. */
    const cpu = { untraced: /** @type {number[]} */ ([]), traced: /** @type {number[]} */ ([]) };
    const run = async (program, tracer) => {
      const lines = [];
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const outcome = await runBlockProgram({ program: parseBlockProgram(program, 'blocks'), driver, userId, images, log: (/** @type {string} */ l) => lines.push(l), maxSeconds: 600, tracer });
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpuBefore);
      cpu[tracer ? 'traced' : 'untraced'].push((used.user + used.system) / 1000);
      if (outcome.state !== 'finished') throw new Error(`the macro ended ${outcome.state}: ${outcome.stateMessage}`);
      return ms;
    };
    /** @param {number} pk */
    const storedBytes = async (pk) => {
      // Each trace's frames at their full size, though a picture another trace shows is stored once (migration 0029): the bound, not the saving.
      const frames = await db.kysely
        .selectFrom('run_trace_frames as f')
        .innerJoin('run_trace_pictures as p', 'p.frame_id', 'f.frame_id')
        .select((eb) => [eb.fn.sum('p.size_bytes').as('bytes'), eb.fn.countAll().as('n')])
        .where('f.execution_pk', '=', pk)
        .executeTakeFirst();
      const steps = await db.kysely.selectFrom('run_trace_steps').select(['body']).where('execution_pk', '=', pk).execute();
      return { frames: Number(frames?.n ?? 0), frameBytes: Number(frames?.bytes ?? 0), steps: steps.length, stepBytes: steps.reduce((n, s) => n + Buffer.byteLength(s.body), 0) };
    };

    // 1. Side by side: untraced, traced, untraced, … on the same device and screen.
    await driver.closeApp(SHOP);
    await driver.openApp(SHOP);
    // Warm-up, once each way: every screen rendered and cached, the tracing code compiled.
    await run(FIFTY, undefined);
    const warm = await newTrace();
    await run(FIFTY, warm.recorder);
    await warm.recorder.flush();
    /** @type {{ untraced: number[], traced: number[] }} */
    const times = { untraced: [], traced: [] };
    let fiftySteps = 0;
    for (let i = 0; i < rounds * 2; i++) {
      const traced = i % 2 === 1;
      // Both sides begin alike: a trace's record is made before every round, used only by the
      // traced one. Made only before the traced rounds, its requests made the run after them
      // about 30 % faster, traced or not (an A/A check gave 0.70).
      const made = await newTrace();
      const trace = traced ? made : undefined;
      times[traced ? 'traced' : 'untraced'].push(await run(FIFTY, trace?.recorder));
      if (trace) {
        await trace.recorder.flush();
        fiftySteps = (await storedBytes(trace.pk)).steps;
      }
    }
    const ratio = ratioOfMedians(times.traced, times.untraced);
    const cpuRatio = median(cpu.traced.slice(-rounds)) / median(cpu.untraced.slice(-rounds));

    // 1b. Whole cloud runs, RUN_TRACE=on against RUN_TRACE=off, alternating.
    const runners = { untraced: await fiftyStepCloudRunner(values.engine, 'traces-off', { RUN_TRACE: 'off' }, cleanups), traced: await fiftyStepCloudRunner(values.engine, 'traces-on', { RUN_TRACE: 'on' }, cleanups) };
    // Both apps' SQLite checkpoint threads going, as in a process that has been up a while.
    if (values.engine === 'sqlite') await new Promise((resolve) => setTimeout(resolve, START_DELAY_MS + 200));
    await runners.untraced.run();
    await runners.traced.run();
    /** @type {{ untraced: number[], traced: number[] }} */
    const cloud = { untraced: [], traced: [] };
    /** finished_at − started_at of the run record: the worker's own time, with no polling in it. @type {{ untraced: number[], traced: number[] }} */
    const recorded = { untraced: [], traced: [] };
    for (let i = 0; i < rounds * 2; i++) {
      const kind = i % 2 === 0 ? 'untraced' : 'traced';
      const times = await runners[kind].run();
      cloud[kind].push(times.wall);
      recorded[kind].push(times.recorded);
    }
    const cloudRatio = ratioOfMedians(cloud.traced, cloud.untraced);
    const recordedRatio = ratioOfMedians(recorded.traced, recorded.untraced, { statistic: trimmedMean });

    // 2. Stored bytes per device-minute.
    const perMinute = [];
    for (const [label, program] of /** @type {const} */ ([['Corner Shop', SHOP_SHOPPER], ['Daily Feed', FEED_READER]])) {
      const trace = await newTrace();
      const ms = await run(program, trace.recorder);
      await trace.recorder.flush();
      const stored = await storedBytes(trace.pk);
      const total = stored.frameBytes + stored.stepBytes;
      perMinute.push({ label, ms, ...stored, total, mbPerMinute: total / 1e6 / (ms / 60_000) });
    }

    console.log(`\nrun-trace benchmark on ${values.engine}, ${rounds} rounds each, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`\n50-step block macro on sim (${fiftySteps} steps traced per run), alternating:`);
    console.log('| run | median ms | min ms | max ms |\n|---|---|---|---|');
    for (const kind of /** @type {const} */ (['untraced', 'traced'])) console.log(`| ${kind} | ${round(median(times[kind]))} | ${round(Math.min(...times[kind]))} | ${round(Math.max(...times[kind]))} |`);
    console.log(`\ntraced / untraced (medians), the interpreter alone: ${verdict(ratio)}`);
    console.log(`CPU time per run (process, all threads), medians: untraced ${round(median(cpu.untraced.slice(-rounds)))} ms, traced ${round(median(cpu.traced.slice(-rounds)))} ms, ratio ${round(cpuRatio, 3)}`);
    console.log('\nThe same macro as whole cloud runs (POST …/run until ended), RUN_TRACE=off and on side by side:');
    console.log('| run | median ms | min ms | max ms |\n|---|---|---|---|');
    for (const kind of /** @type {const} */ (['untraced', 'traced'])) console.log(`| ${kind} | ${round(median(cloud[kind]))} | ${round(Math.min(...cloud[kind]))} | ${round(Math.max(...cloud[kind]))} |`);
    console.log(`\ntraced / untraced (medians), whole cloud runs: ${verdict(cloudRatio)}`);
    console.log(
      `the run records' own durations (finished_at − started_at, whole milliseconds; 10 % trimmed means): untraced ${round(trimmedMean(recorded.untraced))} ms, traced ${round(trimmedMean(recorded.traced))} ms, ratio ${verdict(recordedRatio)}`,
    );
    console.log('\n| app | run s | steps | frames | frame bytes | step bytes | MB per device-minute |\n|---|---|---|---|---|---|---|');
    for (const r of perMinute) console.log(`| ${r.label} | ${round(r.ms / 1000)} | ${r.steps} | ${r.frames} | ${r.frameBytes} | ${r.stepBytes} | ${round(r.mbPerMinute, 3)} |`);
    const worst = Math.max(...perMinute.map((r) => r.mbPerMinute));
    console.log(`\nworst ${round(worst, 3)} MB per device-minute (goal ≤ ${GOAL_MB_PER_MINUTE}): ${worst <= GOAL_MB_PER_MINUTE ? 'PASS' : 'MISS'}`);
  } finally {
    await cleanups.run();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
