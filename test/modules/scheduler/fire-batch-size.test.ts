// A fire pass over a large batch, as the default SCHEDULER_BATCH makes at a busy minute:
// 120 schedules of two accounts in one pass (the failure-streak read then takes two
// statements, and each account's runs are read under its own context). Every fire time is
// recorded once per schedule, and after five failed runs each all 120 are disabled together.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { createTestApp, type TestApp, type TestStorage } from '../../helpers/app.js';
import { createCloudDevice, createMacro } from '../../helpers/resources.js';
import { signUp } from '../../helpers/users.js';

const PER_ACCOUNT = 60;
let t: TestApp & { storage: TestStorage };
const ids: number[] = [];
let firstFire = 0;

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock(Date.parse('2026-05-04T08:00:10Z')), env: { SCHEDULER_BATCH: '150', SCHEDULER_CONCURRENCY: '1' } });
  for (let account = 0; account < 2; account += 1) {
    const user = await signUp(t.app);
    const macro = await createMacro(t.app, user, { name: 'Tick', kind: 'block' });
    await t.app.inject({ method: 'PUT', url: `/api/macros/${macro.id}`, headers: user.auth, payload: { blocks: { version: 1, steps: [{ type: 'log', message: 'tick' }] } } });
    for (let i = 0; i < PER_ACCOUNT; i += 1) {
      const device = await createCloudDevice(t.app, user, { name: `Phone ${i}` });
      const res = await t.app.inject({ method: 'POST', url: '/api/schedules', headers: user.auth, payload: { macro_id: macro.id, device_id: device.id, cron: '* * * * *' } });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
      firstFire = Date.parse(res.json().next_fire_at);
    }
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
});

test('one pass fires 120 schedules of two accounts; five failed runs each disable all of them together', async () => {
  const worker = t.app.modules.scheduler.services.newWorker('big-batch');
  for (let minute = 0; minute < 5; minute += 1) {
    t.clock.set(firstFire + minute * 60_000 + 300);
    // SCHEDULER_CONCURRENCY 1: the 120 due schedules are one claim and one pass.
    expect(await worker.runOnce()).toBe(2 * PER_ACCOUNT);
    await t.db.kysely.updateTable('cloud_runs').set({ state: 'failed', finished_at: t.clock.now() }).where('state', 'in', ['launching', 'running']).execute();
  }
  const started = await t.db.kysely.selectFrom('schedule_occurrences').select(['schedule_id', 'fire_at', 'outcome']).where('schedule_id', 'in', ids).execute();
  expect(started).toHaveLength(5 * 2 * PER_ACCOUNT);
  expect(started.every((row) => row.outcome === 'started')).toBe(true);
  expect(new Set(started.map((row) => `${row.schedule_id}/${row.fire_at}`)).size).toBe(started.length);

  t.clock.set(firstFire + 5 * 60_000 + 300);
  expect(await worker.runOnce()).toBe(2 * PER_ACCOUNT);
  const schedules = await t.db.kysely.selectFrom('schedules').select(['enabled', 'disabled_reason', 'locked_by']).where('id', 'in', ids).execute();
  expect(schedules.every((s) => s.enabled === 0 && s.disabled_reason === 'failing' && s.locked_by === null)).toBe(true);
  // No sixth run was recorded.
  const after = await t.db.kysely.selectFrom('schedule_occurrences').select('id').where('schedule_id', 'in', ids).execute();
  expect(after).toHaveLength(5 * 2 * PER_ACCOUNT);
}, 120_000);
