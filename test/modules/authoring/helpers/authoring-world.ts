// What the authoring tests share: an app whose AUTHOR_LLM_URL points at a scripted model,
// with its own job workers running (as `serve` runs them), a signed-up user, a cloud
// device, and reading sessions and their messages through the routes.
import { expect } from 'vitest';
import { allModules } from '../../../../src/build-modules.js';
import type { TestApp, TestStorage } from '../../../helpers/app.js';
import { ROOMY_LIMITS } from '../../../helpers/code-sync.js';
import { createCloudDevice } from '../../../helpers/resources.js';
import { signUp, type SignedUpUser } from '../../../helpers/users.js';
import { listeningTestApp } from '../../../helpers/listening-app.js';
import { tempDir } from '../../runs/helpers/runner.js';
import { type ScriptedModel, startScriptedModel, type Step } from './scripted-model.js';

export const ADMIN_TOKEN = 'admin-token-for-authoring-tests';

export interface AuthoringWorld {
  t: TestApp & { storage: TestStorage };
  user: SignedUpUser;
  model: ScriptedModel;
  workers: { start(): void; stop(): Promise<void> }[];
}

export async function authoringWorld(env: Record<string, string> = {}, options: { workers?: boolean } = {}): Promise<AuthoringWorld> {
  const model = await startScriptedModel();
  // The app listens, so a run's svc_device reaches the device RPC at BASE_URL over real HTTP.
  const { t } = await listeningTestApp({
    env: { ...ROOMY_LIMITS, RUNS_DIR: tempDir(), SIM_BOOT_MS: '50', AUTHOR_LLM_URL: model.url, AUTHOR_LLM_MODEL: 'scripted', AUTHOR_LLM_TIMEOUT_S: '2', ADMIN_TOKEN, ...env },
  });
  const user = await signUp(t.app);
  const workers = options.workers === false ? [] : allModules(t.app.modules).flatMap((m) => m.workers ?? []);
  for (const w of workers) w.start();
  return { t, user, model, workers };
}

export async function closeAuthoringWorld(w: AuthoringWorld | undefined): Promise<void> {
  if (!w) return;
  await Promise.all(w.workers.map((x) => x.stop()));
  await w.t.close();
  await w.model.close();
}

export const cloudDevice = async (w: AuthoringWorld, user = w.user) => (await createCloudDevice(w.t.app, user, { name: 'Agent phone' })).id as number;

export async function startSession(w: AuthoringWorld, payload: Record<string, unknown>, script: Step[] = [], user = w.user) {
  w.model.push(...script);
  const res = await w.t.app.inject({ method: 'POST', url: '/api/authoring/sessions', headers: user.auth, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; state: string; macro_id: number; device_id: number | null };
}

export const getSession = async (w: AuthoringWorld, id: number, user = w.user) => (await w.t.app.inject({ url: `/api/authoring/sessions/${id}`, headers: user.auth })).json();

export async function sessionInState(w: AuthoringWorld, id: number, states: string[], timeout = 30_000) {
  await expect.poll(async () => (await getSession(w, id)).state, { timeout, interval: 25 }).toSatisfy((s: string) => states.includes(s));
  return getSession(w, id);
}

export async function allMessages(w: AuthoringWorld, id: number, user = w.user) {
  const res = await w.t.app.inject({ url: `/api/authoring/sessions/${id}/messages`, headers: user.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { messages: { seq: number; role: string; text: string }[]; cursor: string; state: string };
}

export const credits = async (w: AuthoringWorld, user = w.user) => (await w.t.app.inject({ url: '/api/billing/credits', headers: user.auth })).json();

export async function setCreditLimit(w: AuthoringWorld, userId: number, limit: number | null) {
  const res = await w.t.app.inject({ method: 'PUT', url: `/admin/users/${userId}/credits`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { limit } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
