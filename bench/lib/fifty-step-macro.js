// @ts-check
// The 50-step block macro on Corner Shop that the run-trace and SQLite benchmarks time, and a
// runner of it as whole cloud runs: an app with its own storage, its workers running and a
// ready simulated phone; `run()` starts a cloud run (POST …/run) and answers once it has ended.
import { performance } from 'node:perf_hooks';
import { benchTarget, request } from '../lib.js';
import { benchAppDeps, benchConfig, listenLocally, openBenchEngine, readySimPhone, startBenchApp } from './engine.js';

export const SHOP = 'com.example.shop';

/**
 * @param {ReturnType<typeof benchTarget>} target
 * @param {string} label
 * @param {Record<string, string>} settings
 * @param {ReturnType<typeof import('../lib.js').cleanupStack>} cleanups
 * @param {{ checkpoints?: 'background' | 'inline', statementsKept?: number }} [sqlite]
 */
async function onApiLoop(target, label, settings, cleanups, sqlite) {
  const { db, redis } = await openBenchEngine(target, { cleanups, sqlite });
  const app = await startBenchApp(benchAppDeps(benchConfig(target, { SIM_BOOT_MS: '20', ...settings }), db, redis), cleanups);
  const base = await listenLocally(app);
  const runWorkers = app.modules.runs.workers ?? [];
  for (const worker of runWorkers) worker.start();
  cleanups.push(() => Promise.all(runWorkers.map((/** @type {any} */ worker) => worker.stop())));
  const { auth, device } = await readySimPhone(app, base, { label: `runs-${label}`, suffix: target.suffix, deviceName: 'Phone' }, cleanups);
  return { auth, device, base };
}

/** Ten steps a shopper's macro makes; five passes make the 50 traced steps. */
export const SHOP_PASS = [
  { type: 'tap', element_id: 'row_mug' },
  { type: 'wait_for', selector: { text: 'Add to cart' }, timeout_ms: 5000 },
  { type: 'key', key: 'BACK' },
  { type: 'wait_for', selector: { text: 'Corner Shop' }, timeout_ms: 5000 },
  { type: 'tap', selector: { resource_id: 'row_beans' } },
  { type: 'key', key: 'BACK' },
  { type: 'swipe', from: { x: 540, y: 1800 }, to: { x: 540, y: 1000 }, ms: 150 },
  { type: 'swipe', from: { x: 540, y: 1000 }, to: { x: 540, y: 1800 }, ms: 150 },
  { type: 'tap', element_id: 'row_mug' },
  { type: 'key', key: 'BACK' },
];

/** The macro as a cloud run runs it: open the app, five passes, close it. */
export const FIFTY_STEP_PROGRAM = { version: 1, steps: [{ type: 'open_app', package: SHOP }, { type: 'repeat', times: 5, steps: SHOP_PASS }, { type: 'close_app', package: SHOP }] };

/**
 * An app on its own storage (`label` names it) with the given settings, running the macro as
 * cloud runs on the API's own event loop, beside the requests that poll them. `sqlite` opens
 * its SQLite connection otherwise than the service does (a baseline).
 * @param {string} engine
 * @param {string} label
 * @param {Record<string, string>} settings
 * @param {ReturnType<typeof import('../lib.js').cleanupStack>} cleanups
 * @param {{ sqlite?: { checkpoints?: 'background' | 'inline', statementsKept?: number } }} [options]
 */
export async function fiftyStepCloudRunner(engine, label, settings, cleanups, { sqlite } = {}) {
  const target = benchTarget(engine, label);
  const { auth, device, base } = await onApiLoop(target, label, settings, cleanups, sqlite);
  const macro = await request(base, 'POST', '/api/macros', { body: { name: 'Fifty', kind: 'block', blocks: FIFTY_STEP_PROGRAM }, headers: auth });
  return {
    /** Starts a cloud run and polls it until it has ended: the wall time, and the run record's finished_at − started_at. */
    async run() {
      const started = performance.now();
      const run = await request(base, 'POST', `/api/hosted/devices/${device.id}/run`, { body: { macro_id: macro.id }, headers: auth });
      for (;;) {
        const now = await request(base, 'GET', `/api/hosted/runs/${run.id}`, { headers: auth });
        if (['finished', 'failed', 'stopped'].includes(now.state)) {
          if (now.state !== 'finished') throw new Error(`a cloud run ended ${now.state}: ${now.state_message}`);
          return { wall: performance.now() - started, recorded: Date.parse(now.finished_at) - Date.parse(now.started_at) };
        }
        // Asked often, so the wall time is not rounded up to the polling interval.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    },
  };
}
