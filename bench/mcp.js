#!/usr/bin/env node
// @ts-check
// Tool-server round trips, in one process on one engine, with the official MCP SDK client
// over one keep-alive connection to the listening app, one request at a time:
//   baseline   GET /api/whoami with the key (a plain REST call through the same key gate)
//   list       tools/list as one JSON-RPC POST (the server's round trip, as any client sees it)
//   list (SDK) the SDK client's listTools(), which also compiles an Ajv validator for every
//              output schema on each call (client-side work, shown for comparison)
//   tap        tools/call device_tap at a point on a simulated device leased through the real
//              lease service (device_lease starts it through the lifecycle job first)
//   screenshot tools/call device_screenshot (JPEG, longer edge 1280 px, quality 80)
// Order baseline → list → tap → screenshot → baseline; the baseline figure is the mean of its
// two runs, so drift over the run favours neither side. Each line prints p50, p99 and the
// ratio of its p50 to the baseline's.
//
// Usage (after `npm run build`, or `npm run bench:mcp -- [options]`):
//   node bench/mcp.js [--engine sqlite|postgres] [--calls N] [--strict]
// Goals (issue 12, SQLite, one process): device_tap p50 < 15 ms, device_screenshot p50 < 80 ms,
// tools/list p50 < 10 ms. --strict exits 1 when one is missed.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { benchConfig, listenLocally, openBenchEngine, signUpOverHttp, BENCH_PASSWORD_PARAMS } from './lib/engine.js';
import { benchTarget, checkEngine, cleanupStack, percentile, request, round } from './lib.js';
import { buildApp } from '../dist/app.js';
import { allModules } from '../dist/build-modules.js';
import { systemClock } from '../dist/lib/clock.js';

const GOALS_MS = { list: 10, tap: 15, screenshot: 80 };

function options() {
  const { values } = parseArgs({
    options: { engine: { type: 'string', default: 'sqlite' }, calls: { type: 'string', default: '300' }, strict: { type: 'boolean', default: false } },
  });
  checkEngine(values.engine);
  const calls = Number(values.calls);
  if (!Number.isInteger(calls) || calls < 10) throw new Error(`--calls must be a whole number ≥ 10, got "${values.calls}"`);
  return { engine: values.engine, calls, strict: values.strict };
}

/**
 * Milliseconds per call of `fn`, after a short warm-up, sorted.
 * @param {number} calls
 * @param {() => Promise<unknown>} fn
 */
async function timeCalls(calls, fn) {
  for (let i = 0; i < Math.min(20, calls); i += 1) await fn();
  const times = [];
  for (let i = 0; i < calls; i += 1) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

async function main() {
  const opts = options();
  const target = benchTarget(opts.engine, 'mcp');
  const cleanups = cleanupStack();
  try {
    const { db, redis } = await openBenchEngine(target, { cleanups });
    const config = benchConfig(target);
    const app = await buildApp({ config, db, clock: systemClock, redis, passwordParams: BENCH_PASSWORD_PARAMS });
    cleanups.push(() => app.close());
    // As `serve` does: the app's workers run, so device_lease starts the stopped device
    // through the lifecycle job, as it would for any client.
    const workers = allModules(app.modules).flatMap((module) => module.workers ?? []);
    for (const worker of workers) worker.start();
    cleanups.push(() => Promise.all(workers.map((worker) => worker.stop())));
    const base = await listenLocally(app);

    const user = await signUpOverHttp(base, `bench-${target.suffix}@example.com`, `pw-${target.suffix}-${target.suffix}`);
    const created = await request(base, 'POST', '/api/api-keys', { body: { name: 'mcp bench', expires_in: 'never' }, headers: user.auth });
    const device = await request(base, 'POST', '/api/hosted/devices', { body: { name: 'Bench phone' }, headers: user.auth });
    const keyHeaders = { 'x-api-key': created.key };

    const client = new Client({ name: 'mcp-bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: keyHeaders } }));
    cleanups.push(() => client.close());
    await client.listTools(); // the SDK caches output schemas for the calls below
    const leased = await client.callTool({ name: 'device_lease', arguments: { device_id: device.id, minutes: 120 } });
    const leaseId = /** @type {{ lease_id: string }} */ (leased.structuredContent).lease_id;
    /** @param {string} name @param {Record<string, unknown>} args */
    const callOk = async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    };

    const baseline = async () => {
      const res = await fetch(`${base}/api/whoami`, { headers: keyHeaders });
      if (res.status !== 200) throw new Error(`whoami answered ${res.status}`);
      await res.arrayBuffer();
    };
    const listBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const listHeaders = { ...keyHeaders, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
    const rawList = async () => {
      const res = await fetch(`${base}/mcp`, { method: 'POST', headers: listHeaders, body: listBody });
      const body = /** @type {{ result?: { tools: unknown[] } }} */ (await res.json());
      if (res.status !== 200 || !body.result?.tools.length) throw new Error(`tools/list answered ${res.status}`);
    };
    const shots = Math.max(10, Math.floor(opts.calls / 3));
    const steps = /** @type {const} */ ([
      ['baseline', opts.calls, baseline],
      ['list', opts.calls, rawList],
      ['list (SDK)', Math.max(10, Math.floor(opts.calls / 3)), () => client.listTools()],
      ['tap', opts.calls, () => callOk('device_tap', { lease_id: leaseId, x: 540, y: 1200 })],
      ['screenshot', shots, () => callOk('device_screenshot', { lease_id: leaseId })],
      ['baseline', opts.calls, baseline],
    ]);

    console.log(`Tool-server benchmark: engine=${opts.engine}${redis ? ' (+ Redis)' : ''}, one connection, sequential calls`);
    const loadBefore = loadavg()[0];
    console.log(`  ${cpus().length} CPUs, node ${process.version}, 1-min load average before: ${loadBefore.toFixed(2)}`);
    /** @type {Record<string, number[][]>} */
    const results = {};
    for (const [name, calls, fn] of steps) (results[name] ??= []).push(await timeCalls(calls, fn));
    const loadAfter = loadavg()[0];

    const p = (/** @type {string} */ name, /** @type {number} */ q) => results[name].map((times) => percentile(times, q)).reduce((a, b) => a + b, 0) / results[name].length;
    const baseP50 = p('baseline', 50);
    let missed = 0;
    console.log('');
    console.log(`  ${'call'.padEnd(12)}${'calls'.padStart(7)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'× baseline p50'.padStart(16)}  goal`);
    for (const name of ['baseline', 'list', 'list (SDK)', 'tap', 'screenshot']) {
      const p50 = p(name, 50);
      const goal = GOALS_MS[/** @type {keyof typeof GOALS_MS} */ (name)];
      const ok = goal === undefined || p50 < goal;
      if (!ok) missed += 1;
      const count = results[name].reduce((n, times) => n + times.length, 0);
      console.log(
        `  ${name.padEnd(12)}${String(count).padStart(7)}${round(p50).toFixed(2).padStart(9)}${round(p(name, 99)).toFixed(2).padStart(9)}${round(p50 / baseP50).toFixed(2).padStart(16)}  ${goal === undefined ? '' : `p50 < ${goal} ms ${ok ? 'met' : 'MISSED'}`}`,
      );
    }
    console.log(`\n  1-min load average after: ${loadAfter.toFixed(2)}`);
    if (opts.strict && missed > 0) process.exitCode = 1;
  } finally {
    await cleanups.run();
  }
}

await main();
