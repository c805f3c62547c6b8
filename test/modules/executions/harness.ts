// The run report and history tests' shared set-up: one app, a world of macros, devices and keys per test, and report shortcuts.
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createKey, type SignedUpUser, signUp, withKey } from '../../helpers/users.js';

export let t: TestApp;
/** Registers the shared set-up as the calling test file's own hooks (each file calls it once, so files can share a process). */
export function useExecutionsHarness(): void {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
}

export type Body = Record<string, unknown>;
let counter = 0;
export const nextExecutionId = () => `exec-${++counter}-${Date.now().toString(36)}`;

export const post = (user: SignedUpUser, url: string, payload: Body) => t.app.inject({ method: 'POST', url, headers: user.auth, payload });
export const report = (user: SignedUpUser, payload: Body) => post(user, '/api/executions/report', payload);

export async function created(user: SignedUpUser, url: string, payload: Body) {
  const res = await post(user, url, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Keys are limited to 120 requests a minute; a second per request keeps well below. */
export async function keyGet(key: string, url: string) {
  t.clock.advance(1000);
  return t.app.inject({ url, headers: withKey(key) });
}

export interface World {
  user: SignedUpUser;
  key: string;
  /** devices:control, to read run_count through the device list. */
  deviceKey: string;
  python: { id: number; name: string };
  block: { id: number; name: string };
  device: { id: number; name: string; port: number; group_id: number };
  device2: { id: number; name: string; port: number };
}

export async function world(): Promise<World> {
  const user = await signUp(t.app);
  const group = await created(user, '/api/emulator/groups', { name: 'Bench', kind: 'byod' });
  return {
    user,
    key: (await createKey(t.app, user, { scopes: ['runs:read'] })).key,
    deviceKey: (await createKey(t.app, user, { scopes: ['devices:control'] })).key,
    python: await created(user, '/api/macros', { name: 'Farm', kind: 'python' }),
    block: await created(user, '/api/macros', { name: 'Tapper', kind: 'block' }),
    device: await created(user, '/api/emulator/devices', { name: 'Pixel', port: 5555, group_id: group.id }),
    device2: await created(user, '/api/emulator/devices', { name: 'Galaxy', port: 5557 }),
  };
}

export const START = '2026-03-02T09:00:00.000Z';
export const running = (w: World, extra: Body = {}): Body => ({
  execution_id: nextExecutionId(),
  status: 'running',
  macro_id: w.python.id,
  device_id: w.device.id,
  execution_type: 'python',
  started_at: START,
  ...extra,
});

export async function events(userId: number) {
  const rows = await t.db.kysely.selectFrom('events').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  return rows.map((row) => ({ type: row.type, device_id: row.device_id, event_id: row.event_id, payload: JSON.parse(row.payload) }));
}

export async function runCount(w: World, deviceId: number): Promise<number> {
  const res = await keyGet(w.deviceKey, '/api/emulator/devices');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().rows.find((d: { id: number }) => d.id === deviceId).run_count;
}

export async function ok(res: Awaited<ReturnType<typeof report>>) {
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
