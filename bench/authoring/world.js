// @ts-check
// The authoring benchmark's service: the real app from the build (dist/) on a fresh SQLite
// file, listening on 127.0.0.1 (a run's svc_device reaches the device RPC over HTTP), with
// the workers `serve` runs, Field Guide preinstalled on simulated devices, a signed-up person,
// a key for cloud runs and one cloud device; and reading and resetting that device's state.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allModules } from '../../dist/build-modules.js';
import { bootState } from '../../dist/modules/devices/hosts/sim/state.js';
import { benchAppDeps, benchConfig, openBenchEngine, startBenchApp } from '../lib/engine.js';
import { benchTarget, request } from '../lib.js';

/** A free TCP port on 127.0.0.1, so BASE_URL can name it before the app listens. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/**
 * @param {{ llmUrl: string, model: string, apiKey?: string, maxSteps: number, maxMinutes: number }} endpoint
 * @param {ReturnType<typeof import('../lib.js').cleanupStack>} cleanups
 */
export async function startWorld(endpoint, cleanups) {
  const target = benchTarget('sqlite', 'authoring');
  const { db } = await openBenchEngine(target, { cleanups });
  // Its own folder: runs may execute as another user, who cannot pass the database's private folder.
  const runsDir = mkdtempSync(join(tmpdir(), 'authoring-bench-runs-'));
  cleanups.push(() => rmSync(runsDir, { recursive: true, force: true }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = benchConfig(target, {
    PORT: String(port),
    BASE_URL: base,
    RUNS_DIR: runsDir,
    SIM_BOOT_MS: '50',
    SIM_EXTRA_APPS: 'field-guide',
    AUTHOR_LLM_URL: endpoint.llmUrl,
    AUTHOR_LLM_MODEL: endpoint.model,
    ...(endpoint.apiKey ? { AUTHOR_LLM_API_KEY: endpoint.apiKey } : {}),
    AUTHOR_MAX_STEPS: String(endpoint.maxSteps),
    AUTHOR_MAX_MINUTES: String(endpoint.maxMinutes),
    AUTHOR_CREDITS_PER_MONTH: '1000000',
  });
  const app = await startBenchApp(benchAppDeps(config, db, undefined), cleanups);
  await app.listen({ host: '127.0.0.1', port });
  const workers = allModules(app.modules).flatMap((m) => m.workers ?? []);
  for (const w of workers) w.start();
  cleanups.push(() => Promise.all(workers.map((w) => w.stop())));

  const signup = await request(base, 'POST', '/api/auth/signup', { body: { email: `bench-${Date.now()}@example.com`, password: 'correct horse battery staple' } });
  const session = { authorization: `Bearer ${signup.session.token}` };
  const key = await request(base, 'POST', '/api/api-keys', { headers: session, body: { name: 'authoring bench' } });
  const withKey = { 'x-api-key': key.key };
  const device = await request(base, 'POST', '/api/hosted/devices', { headers: session, body: { name: 'Bench phone' } });
  const deviceId = Number(device.id);
  await request(base, 'POST', `/api/hosted/devices/${deviceId}/start`, { headers: session });
  await until(async () => (await request(base, 'GET', '/api/emulator/devices?page_size=200', { headers: session })).rows.some((/** @type {{ id: number, hosted_state?: string }} */ d) => d.id === deviceId && d.hosted_state === 'ready'), 30_000, 'the cloud device to be ready');

  return {
    base,
    session,
    withKey,
    deviceId,
    /** The simulator's own record of the device: what the checks read. */
    async state() {
      const row = await db.kysely.selectFrom('sim_devices').select('state').where('device_id', '=', deviceId).executeTakeFirstOrThrow();
      return JSON.parse(row.state);
    },
    /** A fresh boot's state (no app started, no field typed), as after a reboot; installed apps stay. */
    async reset() {
      const row = await db.kysely.selectFrom('sim_devices').select('version').where('device_id', '=', deviceId).executeTakeFirstOrThrow();
      await db.kysely
        .updateTable('sim_devices')
        .set({ state: JSON.stringify(bootState(Date.now())), version: Number(row.version) + 1, updated_at: Date.now() })
        .where('device_id', '=', deviceId)
        .execute();
    },
  };
}

/**
 * Polls `done` every 100 ms until it holds, or fails saying what it waited for.
 * @param {() => Promise<boolean>} done
 * @param {number} timeoutMs
 * @param {string} what
 */
export async function until(done, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
