#!/usr/bin/env node
// @ts-check
// Cloud devices on `sim`, in one process: the real app (built from dist/) listening on
// 127.0.0.1, with the devices module's workers running as `serve` runs them. The goals of
// issue 10 ("Speed"):
//   (a) start → ready within SIM_BOOT_MS + 200 ms: POST …/start over HTTP until the device
//       is ready (waitUntilReady, which looks every 20 ms), then stop; repeated
//   (b) screenshot over HTTP: PNG p50 < 60 ms, JPEG 1280 px p50 < 40 ms, each after a typed
//       character changed the screen (so the image cache misses); also an unchanged screen
//   (c) tap p50 < 5 ms (the driver, as a run or a tool call uses it; there is no tap route)
//   (d) live view: one viewer at 10 fps, then 20 viewers at 4 fps each, while autocannon
//       drives GET /api/emulator/devices; the API's p99 with viewers against the baseline
//       measured in the same run without them must not grow by more than 20 %
//
// Usage (after `npm run build`, or `npm run bench:devices -- [options]`):
//   node bench/devices.js [--engine sqlite|postgres] [--rounds N] [--duration SECONDS] [--live-rounds N] [--strict]
import { request as httpRequest } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { benchAppDeps, benchConfig, listenLocally, openBenchEngine, signUpOverHttp, startBenchApp } from './lib/engine.js';
import { benchTarget, checkEngine, cleanupStack, loadRun, percentile, request, round } from './lib.js';

const SIM_BOOT_MS = 300;
const GOALS = { bootSlackMs: 200, pngP50: 60, jpegP50: 40, tapP50: 5, oneViewerFps: 10, manyViewerFps: 4, p99Growth: 1.2 };

function options() {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string', default: 'sqlite' },
      rounds: { type: 'string', default: '30' },
      duration: { type: 'string', default: '4' },
      'live-rounds': { type: 'string', default: '3' },
      strict: { type: 'boolean', default: false },
    },
  });
  checkEngine(values.engine);
  const rounds = Number(values.rounds);
  const duration = Number(values.duration);
  const liveRounds = Number(values['live-rounds']);
  if (![rounds, duration, liveRounds].every((n) => Number.isInteger(n) && n >= 1)) throw new Error('--rounds, --duration and --live-rounds must be whole numbers ≥ 1');
  return { engine: values.engine, rounds, duration, liveRounds, strict: values.strict };
}

/** @param {number[]} values */
const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1]) };
};

/**
 * @param {number} n
 * @param {(i: number) => Promise<unknown>} measured
 * @param {(i: number) => Promise<unknown>} [before] not timed
 */
async function timeEach(n, measured, before) {
  const times = [];
  for (let i = 0; i < n; i++) {
    await before?.(i);
    const started = performance.now();
    await measured(i);
    times.push(performance.now() - started);
  }
  return stats(times);
}

/** GET that resolves once the whole (binary) body arrived. */
async function fetchBytes(url, headers) {
  const response = await fetch(url, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${body.toString().slice(0, 300)}`);
  return body;
}

/**
 * A live viewer: counts the frames that arrive; `stop()` closes it and answers frames per second.
 * @param {string} url
 * @param {Record<string, string>} headers
 */
function viewer(url, headers) {
  const boundary = Buffer.from('--frame\r\n');
  let frames = 0;
  let first = 0;
  let last = 0;
  const req = httpRequest(url, { headers }, (res) => {
    if (res.statusCode !== 200) throw new Error(`live view answered ${res.statusCode}`);
    res.on('data', (chunk) => {
      // A boundary never straddles chunks here: each frame's header is written as one buffer.
      for (let at = chunk.indexOf(boundary); at !== -1; at = chunk.indexOf(boundary, at + boundary.length)) {
        frames += 1;
        last = performance.now();
        if (frames === 1) first = last;
      }
    });
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  req.end();
  return {
    /** Closes the stream; answers the frame rate between the first and the last frame. */
    stop() {
      req.destroy();
      return frames < 2 ? 0 : round(((frames - 1) * 1000) / (last - first));
    },
  };
}

async function main() {
  const opts = options();
  const target = benchTarget(opts.engine, 'devices');
  const config = benchConfig(target, { SIM_BOOT_MS: String(SIM_BOOT_MS) });
  const cleanups = cleanupStack();
  try {
    const { db, redis } = await openBenchEngine(target, { cleanups });
    const app = await startBenchApp(benchAppDeps(config, db, redis), cleanups);
    const base = await listenLocally(app);
    const workers = app.modules.devices.workers ?? [];
    for (const worker of workers) worker.start();
    cleanups.push(() => Promise.all(workers.map((worker) => worker.stop())));
    const { lifecycle, host } = app.modules.devices.services;
    const { auth } = await signUpOverHttp(base, `bench-devices-${target.suffix}@example.com`, `pw-${target.suffix}`);
    const device = await request(base, 'POST', '/api/hosted/devices', { body: { name: 'Bench phone' }, headers: auth });
    const url = (path) => `${base}/api/hosted/devices/${device.id}${path}`;

    // (a) start → ready, then stop → stopped (not timed).
    const boot = await timeEach(
      Math.min(opts.rounds, 10),
      async () => {
        await request(base, 'POST', `/api/hosted/devices/${device.id}/start`, { headers: auth });
        await lifecycle.waitUntilReady(device.id, { timeoutMs: 10_000 });
      },
      async (i) => {
        if (i === 0) return;
        await request(base, 'POST', `/api/hosted/devices/${device.id}/stop`, { headers: auth });
        for (;;) {
          const row = await db.kysely.selectFrom('devices').select('hosted_state').where('id', '=', device.id).executeTakeFirst();
          if (row?.hosted_state === 'stopped') break;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      },
    );
    await lifecycle.waitUntilReady(device.id, { timeoutMs: 10_000 });

    // (b) screenshots over HTTP, each after a typed character changed the screen.
    const driver = await host.driver(device.id);
    await driver.openApp('com.example.shop', { activity: '.CheckoutActivity' });
    const field = (await driver.uiTree()).find((e) => e.resource_id.endsWith(':id/full_name'));
    if (!field) throw new Error('the checkout form has no full_name field');
    await driver.tap(Math.floor((field.bounds.left + field.bounds.right) / 2), Math.floor((field.bounds.top + field.bounds.bottom) / 2));
    await fetchBytes(url('/screenshot'), auth);
    const letter = (i, from) => driver.typeText(String.fromCharCode(from + (i % 26)));
    const png = await timeEach(opts.rounds, () => fetchBytes(url('/screenshot'), auth), (i) => letter(i, 97));
    const jpeg = await timeEach(opts.rounds, () => fetchBytes(url('/screenshot?format=jpeg&max_edge=1280'), auth), (i) => letter(i, 65));
    const pngSame = await timeEach(opts.rounds, () => fetchBytes(url('/screenshot'), auth));

    // (c) taps that move the focus between two fields (a real change, written to the database).
    const tap = await timeEach(opts.rounds * 3, (i) => driver.tap(540, i % 2 ? 474 : 678));

    // (d) the API under load: no viewers, one viewer at 10 fps, twenty at 4 fps, in turn,
    // `liveRounds` times; each condition's figure is its median over the rounds, which evens
    // out other work on a shared machine.
    const api = `${base}/api/emulator/devices`;
    await loadRun(api, auth, 3, 10);
    /** @type {Record<'none' | 'one' | 'many', { rps: number, p99: number, fps: number[] }[]>} */
    const runs = { none: [], one: [], many: [] };
    /** @type {Record<'none' | 'one' | 'many', () => Promise<void>>} */
    const conditions = {
      none: async () => {
        const r = await loadRun(api, auth, opts.duration, 10);
        runs.none.push({ rps: r.rps, p99: r.p99, fps: [] });
      },
      one: async () => {
        const one = viewer(url('/live?fps=10'), auth);
        const r = await loadRun(api, auth, opts.duration, 10);
        runs.one.push({ rps: r.rps, p99: r.p99, fps: [one.stop()] });
      },
      many: async () => {
        const many = Array.from({ length: 20 }, () => viewer(url('/live?fps=4'), auth));
        const r = await loadRun(api, auth, opts.duration, 10);
        runs.many.push({ rps: r.rps, p99: r.p99, fps: many.map((v) => v.stop()) });
      },
    };
    /** @type {('none' | 'one' | 'many')[]} */
    const order = ['none', 'one', 'many'];
    for (let round_ = 0; round_ < opts.liveRounds; round_++) {
      // Each round starts with another condition, so none is always measured first (or last).
      for (let i = 0; i < order.length; i++) await conditions[order[(round_ + i) % order.length]]();
    }
    /** @param {number[]} values */
    const median = (values) => [...values].sort((x, y) => x - y)[Math.floor((values.length - 1) / 2)];
    const live = Object.fromEntries(
      Object.entries(runs).map(([name, list]) => [name, { rps: median(list.map((r) => r.rps)), p99: median(list.map((r) => r.p99)), fps: list.flatMap((r) => r.fps).sort((x, y) => x - y) }]),
    );

    /** @type {{ name: string, s: { p50: number, p99: number, max: number }, ok: boolean, goal: string }[]} */
    const rows = [
      { name: 'start → ready (ms)', s: boot, ok: boot.p50 <= SIM_BOOT_MS + GOALS.bootSlackMs, goal: `p50 ≤ ${SIM_BOOT_MS + GOALS.bootSlackMs}` },
      { name: 'screenshot PNG, changed (ms)', s: png, ok: png.p50 < GOALS.pngP50, goal: `p50 < ${GOALS.pngP50}` },
      { name: 'screenshot JPEG 1280, changed (ms)', s: jpeg, ok: jpeg.p50 < GOALS.jpegP50, goal: `p50 < ${GOALS.jpegP50}` },
      { name: 'screenshot PNG, unchanged (ms)', s: pngSame, ok: true, goal: '—' },
      { name: 'tap (ms)', s: tap, ok: tap.p50 < GOALS.tapP50, goal: `p50 < ${GOALS.tapP50}` },
    ];
    console.log(`\ndevices benchmark on ${opts.engine}, SIM_BOOT_MS=${SIM_BOOT_MS}, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log('| measure | p50 | p99 | max | goal | |\n|---|---|---|---|---|---|');
    for (const { name, s, ok, goal } of rows) console.log(`| ${name} | ${s.p50} | ${s.p99} | ${s.max} | ${goal} | ${ok ? 'PASS' : 'MISS'} |`);
    const growthOne = round(live.one.p99 / live.none.p99);
    const growthMany = round(live.many.p99 / live.none.p99);
    console.log(`\nlive view: ${opts.liveRounds} rounds of ${opts.duration} s per condition, medians; autocannon, 10 connections, GET /api/emulator/devices`);
    console.log('| viewers | viewer fps (min / median) | API req/s | API p99 ms | p99 vs none | goal | |\n|---|---|---|---|---|---|---|');
    console.log(`| none | — | ${round(live.none.rps)} | ${round(live.none.p99)} | 1.00 | — | |`);
    const okOne = live.one.fps[0] >= GOALS.oneViewerFps * 0.95 && growthOne <= GOALS.p99Growth;
    const okMany = live.many.fps[0] >= GOALS.manyViewerFps * 0.95 && growthMany <= GOALS.p99Growth;
    const fpsOf = (/** @type {number[]} */ list) => `${list[0]} / ${median(list)}`;
    console.log(`| 1 at 10 fps | ${fpsOf(live.one.fps)} | ${round(live.one.rps)} | ${round(live.one.p99)} | ${growthOne} | 10 fps, ≤ ${GOALS.p99Growth} | ${okOne ? 'PASS' : 'MISS'} |`);
    console.log(`| 20 at 4 fps | ${fpsOf(live.many.fps)} | ${round(live.many.rps)} | ${round(live.many.p99)} | ${growthMany} | 4 fps each, ≤ ${GOALS.p99Growth} | ${okMany ? 'PASS' : 'MISS'} |`);
    const allOk = rows.every((row) => row.ok) && okOne && okMany;
    if (opts.strict && !allOk) process.exitCode = 1;
  } finally {
    await cleanups.run();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
