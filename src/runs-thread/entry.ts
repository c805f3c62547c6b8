// The cloud-run thread's side (see runs-thread.ts): opens its own connection to the service's
// database, builds only the modules a cloud run needs (buildRunModules: events with webhooks'
// fan-out, proxies, images, devices, runs), and runs only their cloud-run worker.
// Everything a run does (spawning python3, reading its pipes, shipping its log batches,
// renewing its lease) happens on this thread's event loop, never on the API's.
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { buildRunModules } from '../build-modules.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { systemClock } from '../lib/clock.js';
import { PortMatcher } from '../modules/vision/index.js';
import type { RunsThreadData } from './runs-thread.js';

async function main(): Promise<void> {
  const data = workerData as RunsThreadData;
  // Structured cloning turned the key into a plain Uint8Array.
  const config: Config = { ...data.config, secretKey: Buffer.from(data.config.secretKey) };
  const log = pino({ level: config.logLevel }).child({ thread: 'runs' });
  // The API's connection checkpoints in the background for the whole process.
  const db = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: data.sqliteFile, pgSchema: data.pgSchema, checkpoints: 'inline' });
  db.onConnectionError((error) => log.warn({ err: error }, 'a database connection dropped; it will be replaced'));
  const warnSharedState = (error: unknown, what: string) => log.warn({ err: error }, `shared state unavailable: ${what}`);
  // Matches go to the process's pool, owned by the API's thread (decision 0025).
  const matcher = data.matchPort ? new PortMatcher(data.matchPort) : undefined;
  const modules = buildRunModules({ config, db, clock: systemClock, log, warnSharedState, matcher });
  const worker = modules.runs.runWorker;
  const port = parentPort;
  if (!port) throw new Error('runs-thread/entry.ts runs only as a worker thread');
  port.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    void (async () => {
      try {
        await worker.stop();
        for (const module of Object.values(modules)) await module.close?.();
        await db.close();
      } catch (error) {
        log.error({ err: error }, 'the cloud-run thread did not shut down cleanly');
      }
      port.postMessage('stopped');
      port.close();
    })();
  });
  worker.start();
  port.postMessage('started');
}

// A failure reaches the main thread as the worker's 'error' event, which restarts the thread.
await main();
