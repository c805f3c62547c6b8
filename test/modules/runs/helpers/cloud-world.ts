// A test world for cloud runs through the real routes: an app listening on 127.0.0.1 (so a
// run's svc_device reaches the device RPC), a run worker of its own on the same database
// (as a `worker` process would be) whose readiness boots the simulated device directly,
// a user with a macros:run key, and shortcuts to make macros, start runs and read them back.
import { expect } from 'vitest';
import type { Config } from '../../../../src/config.js';
import { SimHost } from '../../../../src/modules/devices/hosts/index.js';
import { buildRunsModule, type RunReadiness, type RunWorker } from '../../../../src/modules/runs/index.js';
import { bootOnHost } from './boot-on-host.js';
import { createTestApp, type TestApp, type TestAppOptions, type TestStorage } from '../../../helpers/app.js';
import { ROOMY_LIMITS } from '../../../helpers/code-sync.js';
import { createCloudDevice, createMacro } from '../../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../../helpers/users.js';
import { snapshotBody } from '../../../helpers/zip.js';
import { listen } from './device.js';
import { tempDir } from './runner.js';

export interface CloudWorld {
  t: TestApp & { storage: TestStorage };
  baseUrl: string;
  user: SignedUpUser;
  key: string;
  headers: Record<string, string>;
  /** Makes and starts a run worker for this app (stopped by close). */
  worker(overrides?: Partial<Config>, readiness?: RunReadiness): RunWorker;
  close(): Promise<void>;
}

export const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

export async function cloudWorld(options: TestAppOptions = {}): Promise<CloudWorld> {
  const t = await createTestApp({ ...options, env: { ...ROOMY_LIMITS, ...options.env } });
  const baseUrl = await listen(t.app);
  const user = await signUp(t.app);
  const key = (await createKey(t.app, user, { scopes: ['macros:run', 'runs:read'] })).key;
  const workers: RunWorker[] = [];
  const hosts: SimHost[] = [];
  return {
    t,
    baseUrl,
    user,
    key,
    headers: withKey(key),
    worker(overrides = {}, readiness) {
      const host = new SimHost({ db: t.db, clock: t.clock, bootMs: 0 });
      hosts.push(host);
      const module = buildRunsModule({
        config: { ...t.config, runsDir: tempDir(), ...overrides },
        db: t.db,
        clock: t.clock,
        host,
        baseUrl,
        readiness: readiness ?? bootOnHost({ db: t.db, clock: t.clock, host }),
        // The proxies module's check, as build-modules wires it.
        proxyExit: t.app.modules.proxies.services.runExit,
        log: silentLog,
        images: t.app.modules.images.services.screen,
        // The app's events module, so the run's events queue the app's webhook deliveries.
        emit: t.app.modules.events.services.emit,
      });
      module.runWorker.start();
      workers.push(module.runWorker);
      return module.runWorker;
    },
    async close() {
      await Promise.all(workers.map((w) => w.stop()));
      await Promise.all(hosts.map((h) => h.close()));
      await t.close();
    },
  };
}

/** A code macro with `files` synced (entry main.py) and its Default profile's arguments set. */
export async function codeMacro(w: CloudWorld, files: Record<string, string>, args: Record<string, unknown> = {}): Promise<number> {
  const macro = await createMacro(w.t.app, w.user, { kind: 'python' });
  const entries = Object.entries(files).map(([name, data]) => ({ name, data }));
  const upload = await w.t.app.inject({ method: 'POST', url: `/api/macros/${macro.id}/code-snapshot`, headers: w.headers, payload: snapshotBody(entries, { entry_path: 'main.py' }) });
  expect(upload.statusCode, upload.body).toBe(201);
  const profiles = await w.t.app.inject({ url: `/api/macro-setting-profiles?macro_id=${macro.id}`, headers: w.user.auth });
  const put = await w.t.app.inject({ method: 'PUT', url: `/api/macro-setting-profiles/${profiles.json().items[0].id}`, headers: w.user.auth, payload: { args } });
  expect(put.statusCode, put.body).toBe(200);
  return macro.id as number;
}

export async function blockMacro(w: CloudWorld, program: unknown): Promise<number> {
  const res = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.user.auth, payload: { name: 'Blocks', kind: 'block', blocks: program } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

export const cloudDevice = async (w: CloudWorld, name = 'Cloud phone'): Promise<number> => (await createCloudDevice(w.t.app, w.user, { name })).id;

export const postRun = (w: CloudWorld, deviceId: number, body: Record<string, unknown>, headers = w.headers) =>
  w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/run`, headers, payload: body });

export async function startRun(w: CloudWorld, deviceId: number, body: Record<string, unknown>) {
  const res = await postRun(w, deviceId, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; execution_id: string; state: string } & Record<string, unknown>;
}

export const getRun = async (w: CloudWorld, runId: number) => (await w.t.app.inject({ url: `/api/hosted/runs/${runId}`, headers: w.headers })).json();

/** Waits until the run has ended; answers the run and its history record. */
export async function ended(w: CloudWorld, runId: number, timeout = 20_000) {
  await expect.poll(async () => (await getRun(w, runId)).state, { timeout, interval: 25 }).toMatch(/^(finished|failed|stopped)$/);
  const run = await getRun(w, runId);
  const history = await w.t.app.inject({ url: `/api/executions?page_size=200`, headers: w.headers });
  return { run, history: history.json().rows.find((r: { execution_id: string }) => r.execution_id === run.execution_id) };
}

/** Every log line of a run, read with the cursor route as a client would. */
export async function logLines(w: CloudWorld, executionId: string): Promise<string[]> {
  const lines: string[] = [];
  let since = 0;
  for (;;) {
    const res = await w.t.app.inject({ url: `/api/executions/${executionId}/logs?max_lines=1000${since ? `&since_seq=${since}` : ''}`, headers: w.headers });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    lines.push(...body.lines);
    if (body.lines.length === 0 || body.last_seq === since) return lines;
    since = body.last_seq;
  }
}
