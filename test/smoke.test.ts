import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { createKey, signUp, withKey } from './helpers/users.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test('walk-through: sign up, create a key, whoami', async () => {
  const user = await signUp(t.app);
  const { key } = await createKey(t.app, user);
  const res = await t.app.inject({ url: '/api/whoami', headers: withKey(key) });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().user.email).toBe(user.email);
  expect(res.headers['x-ratelimit-limit']).toBe('120');
});
