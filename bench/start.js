#!/usr/bin/env node
// @ts-check
// Start-up as a person meets it: `npm start` until GET /healthz answers 200, in one run,
// against baselines measured in the same run:
//   direct   `node dist/main.js serve` with everything built (the service's own start-up,
//            the floor no build step can go under)
//   warm     `npm start` with nothing changed since the last build (the server's and the
//            console's source hashes match their builds': no build, scripts/build-changed.js)
//   cold     `npm start` after `rm -rf dist` (a fresh clone: every build runs)
//   bare     a bare Fastify server answering /healthz (`node bench/start-bare.js`): the floor of
//            any Node HTTP service on this machine now
// Bare, direct and warm runs alternate, so other work on the machine falls on both alike. Every
// start uses the same migrated data folder (as a restart would) and a free port on
// 127.0.0.1, and is stopped (its process group) once healthy.
//
// Usage (from the repository root; it runs the builds itself):
//   node bench/start.js [--rounds N] [--cold N] [--strict]
//   --rounds  direct and warm starts each (5); --cold  cold starts (1; 0 skips them, and
//   they remove dist/, which the cold start rebuilds); --strict exits 1 when the warm start
//   misses its goal (healthy within 5 s).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { percentile, printTable, round, runMain } from './lib.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const WARM_GOAL_MS = 5000;
const HEALTHY_WITHIN_MS = 180_000;

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, cold: { type: 'string', default: '1' }, strict: { type: 'boolean', default: false } },
});
const rounds = Number(args.rounds);
const colds = Number(args.cold);

/** A port nothing listens on now. */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** @param {number} port @returns {Promise<boolean>} */
function healthy(port) {
  return new Promise((answer) => {
    const req = get({ host: '127.0.0.1', port, path: '/healthz', timeout: 1000 }, (res) => {
      res.resume();
      answer(res.statusCode === 200);
    });
    req.on('error', () => answer(false));
    req.on('timeout', () => req.destroy());
  });
}

const sleep = (/** @type {number} */ ms) => new Promise((done) => setTimeout(done, ms));

/**
 * Runs `command` in its own process group until /healthz answers, then stops the group.
 * @param {string} command
 * @param {string[]} commandArgs
 * @param {string} dataDir
 * @returns {Promise<number>} milliseconds from spawn to the first healthy answer
 */
async function timeStart(command, commandArgs, dataDir) {
  const port = await freePort();
  // The embedded default (SQLite), whatever the shell has set.
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const started = performance.now();
  const child = spawn(command, commandArgs, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise((done) => child.once('exit', done));
  let exitedEarly = false;
  void exited.then(() => (exitedEarly = true));
  try {
    for (;;) {
      if (await healthy(port)) return performance.now() - started;
      if (exitedEarly) throw new Error(`${command} ${commandArgs.join(' ')} exited before it was healthy:\n${stderr}`);
      if (performance.now() - started > HEALTHY_WITHIN_MS) throw new Error(`${command} ${commandArgs.join(' ')} was not healthy within ${HEALTHY_WITHIN_MS / 1000} s`);
      await sleep(25);
    }
  } finally {
    if (!exitedEarly && child.pid) {
      process.kill(-child.pid, 'SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
      if (!stopped) process.kill(-child.pid, 'SIGKILL');
    }
  }
}

/** @param {number[]} times */
function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), min: sorted[0], max: sorted[sorted.length - 1] };
}

const seconds = (/** @type {number} */ ms) => `${round(ms / 1000, 2).toFixed(2)} s`;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const load = [loadavg()];
  try {
    console.log(`start-up, ${cpus().length} cores, load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    // Everything built and the data folder migrated, so the first timed start is warm.
    execFileSync(process.execPath, ['scripts/build-changed.js'], { cwd: ROOT, stdio: 'inherit' });
    await timeStart(process.execPath, ['dist/main.js', 'serve'], dataDir);

    /** @type {{ bare: number[], direct: number[], warm: number[], cold: number[] }} */
    const times = { bare: [], direct: [], warm: [], cold: [] };
    for (let i = 0; i < rounds; i++) {
      times.bare.push(await timeStart(process.execPath, ['bench/start-bare.js'], dataDir));
      times.direct.push(await timeStart(process.execPath, ['dist/main.js', 'serve'], dataDir));
      times.warm.push(await timeStart('npm', ['start', '--silent'], dataDir));
    }
    for (let i = 0; i < colds; i++) {
      rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
      times.cold.push(await timeStart('npm', ['start', '--silent'], dataDir));
    }
    load.push(loadavg());

    const rows = [['start', 'runs', 'median', 'min', 'max']];
    for (const [name, label] of /** @type {const} */ ([['bare', 'bare Fastify, /healthz'], ['direct', 'node dist/main.js serve'], ['warm', 'npm start, nothing changed'], ['cold', 'npm start after rm -rf dist']])) {
      if (times[name].length === 0) continue;
      const s = summary(times[name]);
      rows.push([label, String(times[name].length), seconds(s.median), seconds(s.min), seconds(s.max)]);
    }
    printTable(rows);
    const warm = summary(times.warm).median;
    const direct = summary(times.direct).median;
    console.log('');
    console.log(`direct / bare: ${round(direct / summary(times.bare).median, 2)}x   goal: direct median ≤ 1.0 s on a quiet machine (${seconds(direct)})`);
    console.log(`warm / direct: ${round(warm / direct, 2)}x (what the build checks add to the service's own start-up: ${seconds(warm - direct)})`);
    if (times.cold.length) console.log(`cold / warm:   ${round(summary(times.cold).median / warm, 1)}x`);
    console.log(`load average before / after: ${load.map((l) => l.map((x) => x.toFixed(2)).join(' ')).join(' / ')}`);
    const met = warm < WARM_GOAL_MS;
    console.log(`goal: warm npm start healthy within ${WARM_GOAL_MS / 1000} s: ${met ? 'met' : 'MISSED'} (median ${seconds(warm)})`);
    if (args.strict && !met) process.exitCode = 1;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runMain('start.js', main);
