// What the device-and-run wiring tests share: an app with a user and a key (runs and their
// history), block macros to run, a cloud device, and reading a run, its device and its history.
import { expect } from 'vitest';
import { allModules } from '../../../../src/build-modules.js';
import { DEMO_APP_PACKAGE } from '../../../../src/modules/devices/index.js';
import { createTestApp, type TestApp, type TestStorage } from '../../../helpers/app.js';
import { ROOMY_LIMITS } from '../../../helpers/code-sync.js';
import { createCloudDevice } from '../../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../../helpers/users.js';
import { tempDir } from './runner.js';

export interface World {
  t: TestApp & { storage: TestStorage };
  user: SignedUpUser;
  headers: Record<string, string>;
  workers: { start(): void; stop(): Promise<void> }[];
}

export async function world(env: Record<string, string> = {}): Promise<World> {
  const t = await createTestApp({ env: { ...ROOMY_LIMITS, RUNS_DIR: tempDir(), SIM_BOOT_MS: '300', ...env } });
  const user = await signUp(t.app);
  const key = (await createKey(t.app, user, { scopes: ['macros:run', 'runs:read'] })).key;
  return { t, user, headers: withKey(key), workers: [] };
}

/** A world with every module's workers running, as `serve` starts them. */
export async function servedWorld(env: Record<string, string> = {}): Promise<World> {
  const w = await world(env);
  w.workers = allModules(w.t.app.modules).flatMap((m) => m.workers ?? []);
  for (const x of w.workers) x.start();
  return w;
}

export async function closeWorld(w: World | undefined): Promise<void> {
  if (!w) return;
  await Promise.all(w.workers.map((x) => x.stop()));
  await w.t.close();
}

export const LONG = { version: 1, steps: [{ type: 'log', message: 'about to wait' }, { type: 'wait', ms: 600_000 }] };
export const WALK = {
  version: 1,
  steps: [
    { type: 'log', message: 'hello from the wiring test' },
    { type: 'open_app', package: DEMO_APP_PACKAGE },
    { type: 'tap', element_id: 'row_beans' },
    { type: 'wait_for_text', text: 'Add to cart', timeout_ms: 5000 },
  ],
};

export async function blockMacro(w: World, program: unknown): Promise<number> {
  const res = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.user.auth, payload: { name: 'Wiring', kind: 'block', blocks: program } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

export const cloudDevice = async (w: World) => (await createCloudDevice(w.t.app, w.user, { name: 'Wired phone' })).id as number;
export const postRun = (w: World, deviceId: number, macroId: number) => w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/run`, headers: w.headers, payload: { macro_id: macroId } });
export const getRun = async (w: World, runId: number) => (await w.t.app.inject({ url: `/api/hosted/runs/${runId}`, headers: w.headers })).json();
export const deviceState = async (w: World, id: number) =>
  (await w.t.db.kysely.selectFrom('devices').select(['hosted_state', 'hosted_state_message']).where('id', '=', id).executeTakeFirst()) ?? null;
export const historyOf = async (w: World, executionId: string) =>
  (await w.t.app.inject({ url: '/api/executions?page_size=200', headers: w.headers })).json().rows.find((r: { execution_id: string }) => r.execution_id === executionId);

export async function ended(w: World, runId: number, timeout = 20_000) {
  await expect.poll(async () => (await getRun(w, runId)).state, { timeout, interval: 20 }).toMatch(/^(finished|failed|stopped)$/);
  return getRun(w, runId);
}

export async function running(w: World, runId: number) {
  await expect.poll(async () => (await getRun(w, runId)).state, { timeout: 15_000, interval: 20 }).toBe('running');
}

export async function startedRun(w: World, deviceId: number, macroId: number) {
  const res = await postRun(w, deviceId, macroId);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; execution_id: string; state: string };
}

export const macroEvents = async (w: World, executionId: string) =>
  (await w.t.db.kysely.selectFrom('events').select(['type', 'payload']).where('user_id', '=', w.user.id).where('type', 'like', 'macro.%').orderBy('id').execute())
    .filter((e) => JSON.parse(e.payload).data.execution_id === executionId)
    .map((e) => e.type);
