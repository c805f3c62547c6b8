// The proxies route tests' shared set-up: one app with an admin token, one user with a full-access key, and call shortcuts.
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';

export const ADMIN = 'admin-token-for-tests-0123456789';
export let t: TestApp;
export let user: SignedUpUser;
export let key: string;
export let keyId: number;

/** Registers the shared set-up as the calling test file's own hooks (each file calls it once, so files can share a process). */
export function useProxiesHarness(): void {
  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN: ADMIN } });
    user = await signUp(t.app);
    ({ key, id: keyId } = await createKey(t.app, user));
  });
  afterAll(() => t.close());
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export const call = (method: Method, url: string, payload?: object, k = key) => t.app.inject({ method, url, headers: withKey(k), ...(payload ? { payload } : {}) });
export async function ok(method: Method, url: string, payload?: object, status = 200, k = key) {
  const res = await call(method, url, payload, k);
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}
export const addProxy = (body: object, k = key) => ok('POST', '/api/proxy', body, 201, k);
