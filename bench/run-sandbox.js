#!/usr/bin/env node
// @ts-check
// What the run sandbox costs a run's start (issue 18, decisions.md §10): the Python runner
// (`runPython` from dist/, as a run worker calls it) from the call to the macro's first log
// line, with RUN_SANDBOX=required (bubblewrap, the RPC and egress bridges, socat, the copy into
// the tmpfs) against RUN_SANDBOX=off, alternated run by run in one process so both see the
// same machine. The rest of a run's start (the claim, the history, the HTTP route) is the
// same with and without the sandbox; bench/runs.js measures it whole, sandboxed by default.
//
// Usage (after `npm run build`, or `npm run bench:run-sandbox -- [--runs N] [--strict]`):
//   node bench/run-sandbox.js [--runs 30] [--strict]
//   --strict exits 1 when the sandboxed p50 is 50 ms or more above the unsandboxed one.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import yazl from 'yazl';
import { DEFAULT_RUN_PATH, loadConfig } from '../dist/config.js';
import { runPython } from '../dist/modules/runs/runner/python-run.js';
import { SDK_DIR } from '../dist/modules/runs/runner/sdk-dir.js';
import { percentile, round } from './lib.js';

const GOAL_EXTRA_MS = 50;

/** @returns {Promise<Buffer>} */
function zipOf(/** @type {string} */ source) {
  return new Promise((resolve) => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(source), 'main.py');
    zip.end();
    /** @type {Buffer[]} */
    const chunks = [];
    zip.outputStream.on('data', (chunk) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

async function main() {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '30' }, strict: { type: 'boolean', default: false } } });
  const runs = Number(values.runs);
  const config = loadConfig({ RUN_SANDBOX: 'required' });
  const runsDir = mkdtempSync(join(tmpdir(), 'run-sandbox-bench-'));
  const zip = await zipOf('print("hello")');
  /** @param {'required' | 'off'} mode */
  const once = async (mode) => {
    const started = performance.now();
    let first = 0;
    const logs = { push: () => ((first ||= performance.now() - started), true), drained: async () => undefined };
    const settings = { runsDir, maxSeconds: 60, maxMemoryMb: 512, path: DEFAULT_RUN_PATH, sdkDir: SDK_DIR, runAs: config.runAs, sandbox: { ...config.runSandbox, mode } };
    const outcome = await runPython(settings, { executionId: 'cr_000000000000000000000000', zip, entryPath: 'main.py', args: {}, deviceUrl: 'http://127.0.0.1:9/api/runs/devices/1', token: 'svr_bench', logs: /** @type {any} */ (logs) });
    if (outcome.state !== 'finished' || first === 0) throw new Error(`a ${mode} run did not print: ${JSON.stringify(outcome)}`);
    return first;
  };
  try {
    await once('required'); // the sandbox probe, once per process
    await once('off');
    /** @type {number[]} */ const sandboxed = [];
    /** @type {number[]} */ const bare = [];
    for (let i = 0; i < runs; i += 1) {
      sandboxed.push(await once('required'));
      bare.push(await once('off'));
    }
    sandboxed.sort((a, b) => a - b);
    bare.sort((a, b) => a - b);
    const result = {
      cores: cpus().length,
      loadAverage: loadavg().map((n) => round(n)),
      runs,
      firstLine: {
        sandboxedP50Ms: round(percentile(sandboxed, 50)),
        sandboxedP90Ms: round(percentile(sandboxed, 90)),
        offP50Ms: round(percentile(bare, 50)),
        offP90Ms: round(percentile(bare, 90)),
        extraP50Ms: round(percentile(sandboxed, 50) - percentile(bare, 50)),
        ratio: round(percentile(sandboxed, 50) / percentile(bare, 50)),
      },
    };
    console.log(JSON.stringify(result, null, 2));
    if (result.firstLine.extraP50Ms >= GOAL_EXTRA_MS) {
      console.log(`goal missed: the sandbox adds ${result.firstLine.extraP50Ms} ms at p50 (goal < ${GOAL_EXTRA_MS})`);
      if (values.strict) process.exitCode = 1;
    }
  } finally {
    rmSync(runsDir, { recursive: true, force: true });
  }
}

await main();
