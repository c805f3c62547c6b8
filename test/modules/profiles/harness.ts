// The settings profile route tests' shared set-up: one app, a fresh account per test, and shortcuts for the profile routes.
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createDevice as newDevice, createMacro as newMacro } from '../../helpers/resources.js';
import { createKey, type SignedUpUser, signUp, withKey } from '../../helpers/users.js';

export let t: TestApp;
/** Registers the shared set-up as the calling test file's own hooks (each file calls it once, so files can share a process). */
export function useProfilesHarness(): void {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
}

export const URL_BASE = '/api/macro-setting-profiles';
export const PROFILE_FIELDS = ['args', 'created_at', 'devices_using', 'id', 'is_default', 'macro_id', 'name', 'updated_at'];

export interface Account {
  user: SignedUpUser;
  /** Headers with a full-access key. */
  key: Record<string, string>;
}

export interface ProfileBody {
  id: number;
  name: string;
  args: Record<string, unknown>;
  is_default: boolean;
  devices_using: number;
  created_at: string;
  updated_at: string;
}

/** A fresh account per test keeps each test inside the per-key and per-account rate limits. */
export async function account(): Promise<Account> {
  const user = await signUp(t.app);
  return { user, key: withKey((await createKey(t.app, user)).key) };
}

export const createMacro = async (a: Account, kind: 'python' | 'block' = 'python'): Promise<number> =>
  (await newMacro(t.app, a.user, { name: 'Farm bot', kind })).id;

export const createDevice = async (a: Account, port: number): Promise<number> => (await newDevice(t.app, a.user, { name: `Pixel ${port}`, port })).id;

export async function follow(a: Account, deviceId: number, payload: { macro_id: number; profile_id?: number }): Promise<void> {
  const res = await t.app.inject({ method: 'PUT', url: `/api/emulator/devices/${deviceId}`, headers: a.user.auth, payload });
  expect(res.statusCode, res.body).toBe(200);
}

export const list = (a: Account, macroId: number | string) => t.app.inject({ url: `${URL_BASE}?macro_id=${macroId}`, headers: a.key });
export const create = (a: Account, payload: object) => t.app.inject({ method: 'POST', url: URL_BASE, headers: a.key, payload });
export const update = (a: Account, id: number | string, payload: object) => t.app.inject({ method: 'PUT', url: `${URL_BASE}/${id}`, headers: a.key, payload });
export const remove = (a: Account, id: number | string) => t.app.inject({ method: 'DELETE', url: `${URL_BASE}/${id}`, headers: a.key });

export async function items(a: Account, macroId: number): Promise<ProfileBody[]> {
  const res = await list(a, macroId);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items;
}

export async function createProfile(a: Account, macroId: number, name: string, args?: object): Promise<ProfileBody> {
  const res = await create(a, { macro_id: macroId, name, ...(args ? { args } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export const defaultOf = async (a: Account, macroId: number) => (await items(a, macroId))[0];
export const rowsOf = (macroId: number) => t.db.kysely.selectFrom('macro_setting_profiles').selectAll().where('macro_id', '=', macroId).orderBy('id').execute();
export const now = () => new Date(t.clock.now()).toISOString();

export function expectError(res: { statusCode: number; json(): { details: { code: string } } }, status: number, code: string) {
  expect([res.statusCode, res.json().details.code]).toEqual([status, code]);
}

export function expectInvalid(res: { statusCode: number; json(): { details: { code: string; errors: { path: string }[] } } }, path: string) {
  expectError(res, 422, 'validation_failed');
  expect(res.json().details.errors.map((e) => e.path)).toContain(path);
}
