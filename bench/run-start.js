#!/usr/bin/env node
// @ts-check
// A single cloud-run start (issue 34 point 5: "a single start's latency not worse" once the
// scheduler's starts were batched): `POST /api/hosted/devices/{id}/run` on a ready simulated
// device, against the real app from dist/ over HTTP on 127.0.0.1, one start at a time, each run
// (a one-step block macro) waited for until it has ended before the next start. Baseline in the
// same run: `GET /api/hosted/runs/{id}`, the polls that wait for each run, a plain read through
// the same gate.
//
// To compare two versions of the service, run this same file from a checkout of each (it needs
// only bench/lib.js, bench/lib/engine.js and dist/), side by side on a quiet machine.
//
// Usage (after `npm run build`): node bench/run-start.js [--engine sqlite|postgres] [--starts N]
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { benchAppDeps, benchConfig, listenLocally, openBenchEngine, readySimPhone, startBenchApp } from './lib/engine.js';
import { benchTarget, checkEngine, cleanupStack, percentile, request, round } from './lib.js';

const ENDED = ['finished', 'failed', 'stopped'];

async function main() {
  const { values } = parseArgs({ options: { engine: { type: 'string', default: 'sqlite' }, starts: { type: 'string', default: '200' } } });
  checkEngine(values.engine);
  const starts = Number(values.starts);
  const target = benchTarget(values.engine, 'run-start');
  const cleanups = cleanupStack();
  try {
    const { db, redis } = await openBenchEngine(target, { cleanups });
    // Traces off: the start alone, not the trace's row.
    const app = await startBenchApp(benchAppDeps(benchConfig(target, { SIM_BOOT_MS: '20', RUN_TRACE: 'off' }), db, redis), cleanups);
    const base = await listenLocally(app);
    const runWorkers = app.modules.runs.workers ?? [];
    for (const worker of runWorkers) worker.start();
    cleanups.push(() => Promise.all(runWorkers.map((worker) => worker.stop())));
    const { auth, device } = await readySimPhone(app, base, { label: 'run-start', suffix: target.suffix, deviceName: 'Phone' }, cleanups);
    const macro = await request(base, 'POST', '/api/macros', { body: { name: 'One wait', kind: 'block', blocks: { version: 1, steps: [{ type: 'wait', ms: 1 }] } }, headers: auth });

    /** @type {number[]} */ const startMs = [];
    /** @type {number[]} */ const readMs = [];
    const loadBefore = loadavg().map((x) => round(x, 2));
    for (let i = 0; i < starts + 10; i++) {
      const t0 = performance.now();
      const run = await request(base, 'POST', `/api/hosted/devices/${device.id}/run`, { body: { macro_id: macro.id }, headers: auth });
      const took = performance.now() - t0;
      // The first ten warm the process up (compiled code, prepared plans, pooled connections).
      if (i >= 10) startMs.push(took);
      for (;;) {
        const r0 = performance.now();
        const now = await request(base, 'GET', `/api/hosted/runs/${run.id}`, { headers: auth });
        if (i >= 10) readMs.push(performance.now() - r0);
        if (ENDED.includes(now.state)) {
          if (now.state !== 'finished') throw new Error(`a run ended ${now.state}: ${now.state_message}`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }
    const sorted = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b);
    const s = sorted(startMs);
    const r = sorted(readMs);
    console.log(`\nsingle cloud-run start on ${values.engine}, ${starts} starts, ${cpus().length} CPUs, load average ${loadBefore.join(' ')} → ${loadavg().map((x) => round(x, 2)).join(' ')}\n`);
    console.log('| request | n | p50 ms | p90 ms | p99 ms |');
    console.log('|---|---|---|---|---|');
    console.log(`| POST …/run (start) | ${s.length} | ${round(percentile(s, 50), 2)} | ${round(percentile(s, 90), 2)} | ${round(percentile(s, 99), 2)} |`);
    console.log(`| GET /api/hosted/runs/{id} (baseline) | ${r.length} | ${round(percentile(r, 50), 2)} | ${round(percentile(r, 90), 2)} | ${round(percentile(r, 99), 2)} |`);
    console.log(`\nstart p50 / baseline p50: ${round(percentile(s, 50) / percentile(r, 50), 2)}`);
  } finally {
    await cleanups.run();
  }
}

await main();
