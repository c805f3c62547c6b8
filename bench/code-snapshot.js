#!/usr/bin/env node
// @ts-check
// Code snapshot upload: the time to answer POST /api/macros/{id}/code-snapshot for a 10 MiB
// zip of 2,000 files (1,500 .py files full of string literals, for the image scan, and 500
// incompressible binary files), over HTTP on 127.0.0.1 against the real app from dist/.
// Measured per run, client side, from sending the request to the whole answer:
//   new    a tree the macro has not seen (one file changed per run): read, check, store
//   again  the same tree once more: read and check, then `created: false` (no zip stored)
// plus, in-process, how long reading the zip alone takes (inflate, hash, scan).
//
// Usage (after `npm run build`, or `npm run bench:code -- [options]`):
//   node bench/code-snapshot.js [--engine sqlite|postgres] [--runs N] [--strict]
//   --engine postgres uses DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) in a
//   fresh schema and REDIS_URL (default redis://127.0.0.1:6379) under a fresh key prefix; both
//   are removed afterwards. --strict exits 1 when the goal (p50 of "new" under 1 s) is missed.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { worktreeHash } from '../dist/modules/code-sync/hash.js';
import { SNAPSHOT_LIMITS } from '../dist/modules/code-sync/limits.js';
import { readTree } from '../dist/modules/code-sync/tree.js';
import { zipWorktree } from '../dist/modules/code-sync/worktree.js';
import { benchAppDeps, benchConfig, listenLocally, openBenchEngine, signUpOverHttp, startBenchApp } from './lib/engine.js';
import { benchTarget, checkEngine, cleanupStack, percentile, request, runMain } from './lib.js';

const GOAL_MS = 1000;
const FILES = 2000;
const PY_FILES = 1500;
const TARGET_ZIP_BYTES = SNAPSHOT_LIMITS.maxZipBytes - 16 * 1024;

function options() {
  const { values } = parseArgs({ options: { engine: { type: 'string', default: 'sqlite' }, runs: { type: 'string', default: '10' }, strict: { type: 'boolean', default: false } } });
  checkEngine(values.engine);
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number ≥ 1, got "${values.runs}"`);
  return { engine: values.engine, runs, strict: values.strict };
}

/** A Python module of string literals (random base64, now and then an image id), about 4 KiB. */
function pythonSource(i) {
  const lines = [`"""Module ${i} of the benchmark project."""`, 'import os', ''];
  for (let n = 0; n < 48; n += 1) {
    const literal = n % 16 === 0 ? `img_${randomBytes(8).toString('hex')}` : randomBytes(45).toString('base64');
    lines.push(`VALUE_${n} = "${literal}"  # value ${n}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

async function buildProject() {
  const files = [];
  for (let i = 0; i < PY_FILES; i += 1) {
    const path = i === 0 ? 'src/app.py' : `src/pkg${i % 20}/module_${i}.py`;
    files.push({ path, content: pythonSource(i), permissions: 0o644 });
  }
  // Fill up to the target with incompressible assets, sized from what the .py files take.
  const pyZip = (await zipWorktree(files)).length;
  const assets = FILES - PY_FILES;
  const perAsset = Math.floor((TARGET_ZIP_BYTES - pyZip) / assets) - 120;
  for (let i = 0; i < assets; i += 1) files.push({ path: `assets/blob_${i}.bin`, content: randomBytes(perAsset), permissions: 0o644 });
  return files;
}

const summary = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { min: sorted[0], p50: percentile(sorted, 50), max: sorted[sorted.length - 1] };
};
const ms = (value) => `${value.toFixed(0)} ms`;

async function main() {
  const opts = options();
  const target = benchTarget(opts.engine, 'code');
  const { suffix } = target;
  const config = benchConfig(target);

  const cleanups = cleanupStack();
  try {
    const { db, redis } = await openBenchEngine(target, { cleanups });
    const app = await startBenchApp(benchAppDeps(config, db, redis), cleanups);
    const base = await listenLocally(app);

    const { auth } = await signUpOverHttp(base, `bench-${suffix}@example.com`, `pw-${suffix}-${suffix}`);
    const { key } = await request(base, 'POST', '/api/api-keys', { body: { name: 'code bench', scopes: ['macros:run'] }, headers: auth });
    const macro = await request(base, 'POST', '/api/macros', { body: { name: 'bench', kind: 'python' }, headers: auth });

    const files = await buildProject();
    const upload = async (tree) => {
      const zip = await zipWorktree(tree);
      const body = { zip_file_base64: zip.toString('base64'), worktree_hash: worktreeHash(tree) };
      const started = performance.now();
      const answer = await request(base, 'POST', `/api/macros/${macro.id}/code-snapshot`, { body, headers: { 'x-api-key': key } });
      return { elapsed: performance.now() - started, answer, zipBytes: zip.length };
    };
    const first = await zipWorktree(files);
    console.log(
      `Code snapshot benchmark: engine=${opts.engine}${redis ? ' (+ Redis)' : ''}, ${FILES} files (${PY_FILES} .py), ` +
        `zip ${(first.length / 1048576).toFixed(2)} MiB (${first.length} bytes), ${opts.runs} runs each`,
    );
    const loadBefore = loadavg()[0];
    console.log(`  ${cpus().length} CPUs, node ${process.version}, 1-min load average before: ${loadBefore.toFixed(2)}`);

    const readTimes = [];
    for (let run = 0; run < opts.runs; run += 1) {
      const started = performance.now();
      await readTree(first, SNAPSHOT_LIMITS);
      readTimes.push(performance.now() - started);
    }
    const fresh = [];
    const again = [];
    for (let run = 0; run < opts.runs; run += 1) {
      // One changed file makes a tree the macro has not seen.
      const tree = files.map((file, i) => (i === 0 ? { ...file, content: Buffer.concat([file.content, Buffer.from(`RUN = ${run}\n`)]) } : file));
      const created = await upload(tree);
      if (created.answer.created !== true || created.answer.file_count !== FILES) throw new Error(`unexpected answer: ${JSON.stringify(created.answer).slice(0, 300)}`);
      if (created.zipBytes > SNAPSHOT_LIMITS.maxZipBytes) throw new Error(`the zip grew past the limit: ${created.zipBytes} bytes`);
      fresh.push(created.elapsed);
      const repeated = await upload(tree);
      if (repeated.answer.created !== false) throw new Error('the same tree again must answer created: false');
      again.push(repeated.elapsed);
    }
    const loadAfter = loadavg()[0];
    const result = { read: summary(readTimes), new: summary(fresh), again: summary(again) };
    console.log('');
    console.log('| measured | min | p50 | max |');
    console.log('|---|---:|---:|---:|');
    console.log(`| read the zip in-process (inflate, hash, scan) | ${ms(result.read.min)} | ${ms(result.read.p50)} | ${ms(result.read.max)} |`);
    console.log(`| POST, new snapshot (created: true) | ${ms(result.new.min)} | ${ms(result.new.p50)} | ${ms(result.new.max)} |`);
    console.log(`| POST, same tree again (created: false) | ${ms(result.again.min)} | ${ms(result.again.p50)} | ${ms(result.again.max)} |`);
    console.log('');
    const met = result.new.p50 < GOAL_MS && result.again.p50 < GOAL_MS;
    console.log(`1-min load average before/after: ${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)}`);
    console.log(`goal time to answer < ${GOAL_MS} ms (p50): ${met ? 'MET' : 'MISSED'}`);
    console.log(JSON.stringify({ bench: 'code-snapshot', engine: opts.engine, redis: Boolean(redis), files: FILES, zip_bytes: first.length, runs: opts.runs, node: process.version, cpus: cpus().length, ms: result, goal_met: met }));
    if (opts.strict && !met) process.exitCode = 1;
  } finally {
    await cleanups.run();
  }
}

runMain('code-snapshot.js', main);
