#!/usr/bin/env node
// @ts-check
// Cloud runs, in one process (the app and its run worker, as `serve` runs them: the runs on
// their own worker thread, `--runs-on thread`, or on the API's event loop, `--runs-on loop`,
// as before; or, on PostgreSQL, `--runs-on process`: every worker in a separate
// `node dist/main.js worker` process, as `serve` with RUN_WORKERS=false beside `svc worker`),
// over HTTP on 127.0.0.1 against the real app from dist/:
//   first line   POST /api/hosted/devices/{id}/run on a `ready` simulated device until the
//                macro's first line (print("hello")) is readable through the cursor route;
//                baseline: `python3 -c 'print("hello")'` spawned directly, to its first line.
//   50 at once   50 Python runs on 50 devices started together, each printing LINES numbered
//                lines; every run must finish and every stored log must hold each number once,
//                in order. Meanwhile 4 clients read GET /api/hosted/runs/{id} in a loop: their
//                p99, against the same reads with nothing running (the baseline).
//
// Usage (after `npm run build`, or `npm run bench:runs -- [options]`):
//   node bench/runs.js [--engine sqlite|postgres] [--runs-on thread|loop|process] [--runs N] [--devices N] [--lines N] [--strict]
//   --strict exits 1 when a goal is missed (first line p50 < 300 ms; none lost; API p99 < 50 ms).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { systemClock } from '../dist/lib/clock.js';
import { worktreeHash } from '../dist/modules/code-sync/hash.js';
import { zipWorktree } from '../dist/modules/code-sync/worktree.js';
import { buildRunsModule } from '../dist/modules/runs/index.js';
import { RunsThread, serveWorkers } from '../dist/runs-thread/runs-thread.js';
import { benchAppDeps, benchConfig, listenLocally, openBenchEngine, signUpOverHttp, startBenchApp } from './lib/engine.js';
import { benchTarget, checkEngine, cleanupStack, percentile, request, round } from './lib.js';

const GOALS = { firstLineP50Ms: 300, apiP99Ms: 50 };
const silent = { info() {}, warn() {}, error() {} };

function options() {
  const { values } = parseArgs({
    options: { engine: { type: 'string', default: 'sqlite' }, 'runs-on': { type: 'string', default: 'thread' }, runs: { type: 'string', default: '20' }, devices: { type: 'string', default: '50' }, lines: { type: 'string', default: '2000' }, strict: { type: 'boolean', default: false } },
  });
  checkEngine(values.engine);
  if (!['thread', 'loop', 'process'].includes(String(values['runs-on']))) throw new Error(`--runs-on must be thread, loop or process, got "${values['runs-on']}"`);
  if (values['runs-on'] === 'process' && values.engine !== 'postgres') throw new Error('--runs-on process needs --engine postgres (processes share the queue through PostgreSQL)');
  return { engine: values.engine, runsOn: values['runs-on'], runs: Number(values.runs), devices: Number(values.devices), lines: Number(values.lines), strict: values.strict };
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Spawns python3 and answers the milliseconds until its first line of output. */
function pythonBaseline() {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('python3', ['-c', 'print("hello")'], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.once('data', () => resolve(performance.now() - started));
    child.once('error', reject);
  });
}

/**
 * `node dist/main.js worker` on the bench's PostgreSQL schema, its runs' svc_device pointed at
 * this app; resolves once it says it has started.
 * @param {import('../dist/config.js').Config} config
 * @param {ReturnType<typeof benchTarget>} target
 * @param {string} base
 * @param {string} runsDir
 * @param {{ push: (step: () => unknown) => void }} cleanups
 */
async function startWorkerProcess(config, target, base, runsDir, cleanups) {
  const url = new URL(String(config.databaseUrl));
  url.searchParams.set('options', `-c search_path=${target.pgSchema}`);
  const env = { ...process.env, DATABASE_URL: url.toString(), REDIS_URL: '', SECRET_KEY: config.secretKey.toString('hex'), BASE_URL: base, RUNS_DIR: runsDir, SIM_BOOT_MS: '0', RUNS_PER_WORKER: String(config.runsPerWorker), LOG_LEVEL: 'info' };
  const child = spawn('node', ['dist/main.js', 'worker'], { stdio: ['ignore', 'pipe', 'inherit'], env });
  cleanups.push(() => new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : (child.once('exit', resolve), child.kill('SIGTERM')))));
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('worker started')) resolve(undefined);
    });
    child.once('exit', (code) => reject(new Error(`the worker process exited (${code}) before it started: ${out.slice(0, 500)}`)));
  });
  // Its first looks at the queue, made on connecting, are over: from here a wake-up starts runs.
  await sleep(2_500);
}

async function main() {
  const opts = options();
  const cleanups = cleanupStack();
  const target = benchTarget(opts.engine, 'runs');
  try {
    const runsDir = mkdtempSync(join(tmpdir(), 'runs-bench-dirs-'));
    const config = benchConfig(target, { RUNS_DIR: runsDir, SIM_BOOT_MS: '0', RUNS_PER_WORKER: String(Math.max(8, opts.devices + 4)), RUN_WORKERS: 'false' });
    const { db, redis, sqliteFile } = await openBenchEngine(target, { cleanups, poolSize: 20 });
    const app = await startBenchApp(benchAppDeps(config, db, redis), cleanups);
    const base = await listenLocally(app);
    if (opts.runsOn === 'process') {
      await startWorkerProcess(config, target, base, runsDir, cleanups);
    } else if (opts.runsOn === 'thread') {
      // As `serve` runs them: every worker on this loop but the runs, which get their own thread.
      const thread = new RunsThread({ config: { ...config, baseUrl: base }, sqliteFile, pgSchema: target.pgSchema, log: app.log });
      const workers = serveWorkers(app.modules, thread);
      for (const worker of workers) worker.start();
      await thread.ready();
      cleanups.push(() => Promise.all(workers.map((worker) => worker.stop())));
    } else {
      // The run worker on the API's loop, with BASE_URL set to where this app listens.
      // Its devices are readied by the app's device lifecycle, on the app's host, as build-modules.ts wires it.
      const { host, lifecycle } = app.modules.devices.services;
      const runs = buildRunsModule({ config, db, clock: systemClock, host, baseUrl: base, readiness: lifecycle, log: silent, images: app.modules.images.services.screen, emit: app.modules.events.services.emit });
      runs.runWorker.start();
      cleanups.push(() => runs.runWorker.stop());
      cleanups.push(() => runs.close());
    }

    const { auth } = await signUpOverHttp(base, `bench-${target.suffix}@example.com`, `pw-${target.suffix}-${target.suffix}`);
    const { key } = await request(base, 'POST', '/api/api-keys', { body: { name: 'runs bench', scopes: ['macros:run', 'runs:read'] }, headers: auth });
    const headers = { 'x-api-key': key };
    const macroOf = async (/** @type {string} */ source) => {
      const macro = await request(base, 'POST', '/api/macros', { body: { name: `bench ${Math.random()}`, kind: 'python' }, headers: auth });
      const tree = [{ path: 'main.py', content: Buffer.from(source), permissions: 0o644 }];
      await request(base, 'POST', `/api/macros/${macro.id}/code-snapshot`, { body: { zip_file_base64: (await zipWorktree(tree)).toString('base64'), worktree_hash: worktreeHash(tree), entry_path: 'main.py' }, headers });
      return /** @type {number} */ (macro.id);
    };
    const device = async (/** @type {number} */ i) => (await request(base, 'POST', '/api/hosted/devices', { body: { name: `bench ${i}` }, headers: auth })).id;
    const state = async (/** @type {number} */ runId) => (await request(base, 'GET', `/api/hosted/runs/${runId}`, { headers })).state;
    const waitEnded = async (/** @type {number} */ runId) => {
      for (;;) {
        const s = await state(runId);
        if (s === 'finished' || s === 'failed' || s === 'stopped') return s;
        await sleep(20);
      }
    };

    // 1. First line readable, one run at a time on one ready device.
    const hello = await macroOf('print("hello")');
    const one = await device(0);
    const warm = await request(base, 'POST', `/api/hosted/devices/${one}/run`, { body: { macro_id: hello }, headers });
    await waitEnded(warm.id); // boots the device: from here on it is `ready`
    /** @type {number[]} */
    const firstLine = [];
    /** @type {number[]} */
    const baseline = [];
    for (let i = 0; i < opts.runs; i += 1) {
      baseline.push(await pythonBaseline());
      const started = performance.now();
      const run = await request(base, 'POST', `/api/hosted/devices/${one}/run`, { body: { macro_id: hello }, headers });
      for (;;) {
        const logs = await request(base, 'GET', `/api/executions/${run.execution_id}/logs`, { headers });
        if (logs.lines.length > 0) break;
        await sleep(2);
      }
      firstLine.push(performance.now() - started);
      await waitEnded(run.id);
    }
    firstLine.sort((a, b) => a - b);
    baseline.sort((a, b) => a - b);

    // 2. Many runs at once, and the API meanwhile.
    const numbered = await macroOf(`for i in range(${opts.lines}):\n    print(f"line {i}")`);
    const devices = await Promise.all(Array.from({ length: opts.devices }, (_, i) => device(i + 1)));
    /** @param {() => boolean} going @param {number} probeRun */
    const probe = async (going, probeRun) => {
      /** @type {number[]} */
      const latencies = [];
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (going()) {
            const t0 = performance.now();
            await request(base, 'GET', `/api/hosted/runs/${probeRun}`, { headers });
            latencies.push(performance.now() - t0);
          }
        }),
      );
      return latencies.sort((a, b) => a - b);
    };
    const idleUntil = performance.now() + 3000;
    const idle = await probe(() => performance.now() < idleUntil, warm.id);
    // How long the API's event loop was held up meanwhile: high means work on the loop itself,
    // low (with a high p99) means the loop waited for a CPU.
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    const started = performance.now();
    const batch = await Promise.all(devices.map((id) => request(base, 'POST', `/api/hosted/devices/${id}/run`, { body: { macro_id: numbered }, headers })));
    loopDelay.enable();
    let running = true;
    const busyProbe = probe(() => running, warm.id);
    // Waits by reading the table, every 100 ms: polling 50 runs over HTTP would itself load the
    // API (and this process, whose event loop the app shares) far more than the probe does.
    const ids = batch.map((run) => /** @type {number} */ (run.id));
    /** @type {string[]} */
    let states = [];
    for (;;) {
      const rows = await db.kysely.selectFrom('cloud_runs').select('state').where('id', 'in', ids).execute();
      states = rows.map((row) => row.state);
      if (states.every((state) => state === 'finished' || state === 'failed' || state === 'stopped')) break;
      await sleep(100);
    }
    running = false;
    loopDelay.disable();
    const busy = await busyProbe;
    const allMs = performance.now() - started;
    let lost = 0;
    let duplicated = 0;
    let outOfOrder = 0;
    for (const run of batch) {
      const history = await db.kysely.selectFrom('executions').select('id').where('execution_id', '=', run.execution_id).executeTakeFirstOrThrow();
      const batches = await db.kysely.selectFrom('run_log_batches').select('lines').where('execution_pk', '=', history.id).orderBy('seq').execute();
      const lines = batches.flatMap((b) => /** @type {string[]} */ (JSON.parse(b.lines)));
      const seen = new Map();
      lines.forEach((line, index) => {
        seen.set(line, (seen.get(line) ?? 0) + 1);
        if (line !== `line ${index}`) outOfOrder += 1;
      });
      for (let i = 0; i < opts.lines; i += 1) {
        const n = seen.get(`line ${i}`) ?? 0;
        if (n === 0) lost += 1;
        if (n > 1) duplicated += n - 1;
      }
    }
    const failed = states.filter((s) => s !== 'finished').length;

    const result = {
      engine: opts.engine,
      runsOn: opts.runsOn,
      cores: cpus().length,
      loadAverage: loadavg().map((n) => round(n)),
      firstLine: { runs: opts.runs, p50Ms: round(percentile(firstLine, 50)), p90Ms: round(percentile(firstLine, 90)), pythonAloneP50Ms: round(percentile(baseline, 50)), ratio: round(percentile(firstLine, 50) / percentile(baseline, 50)) },
      concurrent: {
        runs: opts.devices,
        linesEach: opts.lines,
        notFinished: failed,
        lost,
        duplicated,
        outOfOrder,
        allEndedMs: round(allMs),
        apiP99Ms: round(percentile(busy, 99)),
        apiP50Ms: round(percentile(busy, 50)),
        apiIdleP99Ms: round(percentile(idle, 99)),
        apiRatio: round(percentile(busy, 99) / percentile(idle, 99)),
        apiRequests: busy.length,
        apiLoopDelayP99Ms: round(loopDelay.percentile(99) / 1e6),
        apiLoopDelayMaxMs: round(loopDelay.max / 1e6),
      },
    };
    console.log(JSON.stringify(result, null, 2));
    const missed = [];
    if (result.firstLine.p50Ms >= GOALS.firstLineP50Ms) missed.push(`first line p50 ${result.firstLine.p50Ms} ms ≥ ${GOALS.firstLineP50Ms}`);
    if (failed || lost || duplicated || outOfOrder) missed.push('a run did not finish, or a line was lost, duplicated or out of order');
    if (result.concurrent.apiP99Ms >= GOALS.apiP99Ms) missed.push(`API p99 ${result.concurrent.apiP99Ms} ms ≥ ${GOALS.apiP99Ms}`);
    if (missed.length) console.log(`goals missed: ${missed.join('; ')}`);
    if (opts.strict && missed.length) process.exitCode = 1;
  } finally {
    await cleanups.run();
  }
}

await main();
