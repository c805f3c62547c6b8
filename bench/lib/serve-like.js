// @ts-check
// The real app from dist/ with its cloud runs on a thread of their own, as `serve` runs them,
// on a fresh engine and with no SIM_SEED (each device's loading times come from its own random
// sequence): what the benches that replay macros on `sim` as cloud runs start from.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunsThread, serveWorkers } from '../../dist/runs-thread/runs-thread.js';
import { benchAppDeps, benchConfig, listenLocally, openBenchEngine, startBenchApp } from './engine.js';

/**
 * @param {import('./engine.js').BenchTarget} target
 * @param {import('./engine.js').CleanupStack} cleanups
 * @param {string} label names the runs folder
 */
export async function startServeLike(target, cleanups, label) {
  const runsDir = mkdtempSync(join(tmpdir(), `${label}-runs-`));
  const config = benchConfig(target, { RUNS_DIR: runsDir, SIM_BOOT_MS: '0', RUN_WORKERS: 'false' });
  const { db, redis, sqliteFile } = await openBenchEngine(target, { cleanups });
  const app = await startBenchApp(benchAppDeps(config, db, redis), cleanups);
  const base = await listenLocally(app);
  const thread = new RunsThread({ config: { ...config, baseUrl: base }, sqliteFile, pgSchema: target.pgSchema, log: app.log });
  const workers = serveWorkers(app.modules, thread);
  for (const worker of workers) worker.start();
  await thread.ready();
  cleanups.push(() => Promise.all(workers.map((worker) => worker.stop())));
  return { app, base };
}
