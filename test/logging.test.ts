// Keys, session tokens and passwords never reach a log line, even at the most verbose level.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { createKey, signUp, withKey } from './helpers/users.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { LOG_LEVEL: 'trace' } });
});
afterAll(() => t.close());

test('no secret appears in the logs of a full walk-through', async () => {
  const user = await signUp(t.app, 'logs@example.com');
  const { key } = await createKey(t.app, user);
  await t.app.inject({ url: '/api/whoami', headers: withKey(key) });
  await t.app.inject({ url: '/api/whoami', headers: { authorization: `Bearer ${key}` } });
  await t.app.inject({ url: '/api/auth/me', headers: { cookie: `session=${user.token}` } });
  await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'logs@example.com', password: 'correct horse battery' } });
  await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'logs@example.com', password: 'wrong password typed' } });
  const all = t.logs.join('\n');
  expect(t.logs.length).toBeGreaterThan(5); // the app did log these requests
  for (const secret of [key, key.slice(12), user.token, 'correct horse battery', 'wrong password typed']) {
    expect(all).not.toContain(secret);
  }
});
