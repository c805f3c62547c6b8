// total_rows of an unfiltered or status-only history page comes from counts kept with every
// report; they must equal a real COUNT(*) after concurrent creates and transitions.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createDevice, createMacro } from '../../helpers/resources.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test('counts stay exact through concurrent reports and their endings', async () => {
  const user = await signUp(t.app);
  const { key } = await createKey(t.app, user, { scopes: ['runs:read'] });
  const macro = await createMacro(t.app, user);
  const device = await createDevice(t.app, user);
  const report = (executionId: string, extra: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/executions/report',
      headers: user.auth,
      payload: { execution_id: executionId, macro_id: macro.id, device_id: device.id, execution_type: 'python', started_at: '2026-03-01T10:00:00Z', status: 'running', ...extra },
    });
  // 30 runs started at once, some reported twice concurrently (one insert must win).
  const starts = await Promise.all(Array.from({ length: 40 }, (_, i) => report(`run-${i % 30}`, {})));
  expect(starts.every((r) => r.statusCode === 200)).toBe(true);
  // End 20 of them concurrently, several twice (one wins, the other gets 409).
  const ends = await Promise.all(
    Array.from({ length: 26 }, (_, i) => report(`run-${i % 20}`, { status: i % 3 === 0 ? 'failed' : 'completed', ended_at: '2026-03-01T10:05:00Z' })),
  );
  expect(ends.filter((r) => r.statusCode === 200)).toHaveLength(20);
  expect(ends.filter((r) => r.statusCode === 409)).toHaveLength(6);

  const total = async (query: string) => (await t.app.inject({ url: `/api/executions${query}`, headers: withKey(key) })).json().total_rows;
  const actual = async (status?: string) => {
    let q = t.db.kysely.selectFrom('executions').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', user.id);
    if (status) q = q.where('status', '=', status as 'running');
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  expect(await total('')).toBe(30);
  expect(await total('')).toBe(await actual());
  for (const status of ['running', 'completed', 'failed', 'stopped']) {
    expect(await total(`?status=${status}`)).toBe(await actual(status));
  }
  expect(await total('?status=running')).toBe(10);
  // Another account's counts are its own.
  const other = await signUp(t.app);
  const otherKey = await createKey(t.app, other);
  expect((await t.app.inject({ url: '/api/executions', headers: withKey(otherKey.key) })).json().total_rows).toBe(0);
});
