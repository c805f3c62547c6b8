// Fire passes over batches of schedules (SCHEDULER_BATCH):
// - a large batch, as the default makes at a busy minute: 120 schedules of two accounts in
//   one pass (the failure-streak read then takes two statements, and each account's runs are
//   read under its own context); every fire time is recorded once per schedule, and after
//   five failed runs each all 120 are disabled together;
// - one bad schedule stops only itself: a rule that no longer computes, or a row the
//   database refuses, leaves the rest of its batch recorded.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { createTestApp, type TestApp, type TestStorage } from '../../helpers/app.js';
import { createCloudDevice, createMacro } from '../../helpers/resources.js';
import { type SignedUpUser, signUp } from '../../helpers/users.js';

const PER_ACCOUNT = 60;
let t: TestApp & { storage: TestStorage };
const users: { user: SignedUpUser; macroId: number }[] = [];

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock(Date.parse('2026-05-04T08:00:10Z')), env: { SCHEDULER_BATCH: '150', SCHEDULER_CONCURRENCY: '1' } });
  for (let account = 0; account < 2; account += 1) {
    const user = await signUp(t.app);
    const macro = await createMacro(t.app, user, { name: 'Tick', kind: 'block' });
    await t.app.inject({ method: 'PUT', url: `/api/macros/${macro.id}`, headers: user.auth, payload: { blocks: { version: 1, steps: [{ type: 'log', message: 'tick' }] } } });
    users.push({ user, macroId: macro.id });
  }
});
afterAll(async () => {
  await t?.close();
});

async function schedule(owner = users[0]!, name = 'Phone') {
  const device = await createCloudDevice(t.app, owner.user, { name });
  const res = await t.app.inject({ method: 'POST', url: '/api/schedules', headers: owner.user.auth, payload: { macro_id: owner.macroId, device_id: device.id, cron: '* * * * *' } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; next_fire_at: string };
}

const occurrences = (scheduleId: number) => t.db.kysely.selectFrom('schedule_occurrences').select(['fire_at', 'outcome']).where('schedule_id', '=', scheduleId).execute();
const held = async (id: number) => (await t.db.kysely.selectFrom('schedules').select('locked_by').where('id', '=', id).executeTakeFirstOrThrow()).locked_by;
const endRuns = (state: 'finished' | 'failed') => t.db.kysely.updateTable('cloud_runs').set({ state, finished_at: t.clock.now() }).where('state', 'in', ['launching', 'running']).execute();

async function removeSchedules(ids: number[]) {
  await t.db.kysely.deleteFrom('schedule_occurrences').where('schedule_id', 'in', ids).execute();
  await t.db.kysely.deleteFrom('schedules').where('id', 'in', ids).execute();
}

test('one pass fires 120 schedules of two accounts; five failed runs each disable all of them together', async () => {
  const ids: number[] = [];
  let firstFire = 0;
  for (const owner of users) {
    for (let i = 0; i < PER_ACCOUNT; i += 1) {
      const s = await schedule(owner, `Phone ${i}`);
      ids.push(s.id);
      firstFire = Date.parse(s.next_fire_at);
    }
  }
  const worker = t.app.modules.scheduler.services.newWorker('big-batch');
  for (let minute = 0; minute < 5; minute += 1) {
    t.clock.set(firstFire + minute * 60_000 + 300);
    // SCHEDULER_CONCURRENCY 1 and a batch of 150: the 120 due schedules are one claim and one pass.
    expect(await worker.runOnce()).toBe(2 * PER_ACCOUNT);
    await endRuns('failed');
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
  await removeSchedules(ids);
}, 120_000);

describe('one bad schedule stops only itself', () => {
  test('a schedule whose rule no longer computes is left to its lease; the others of its batch fire', async () => {
    const [a, b, c] = [await schedule(), await schedule(), await schedule()];
    // A zone that was valid when stored and no longer is (the tz data changed): computing its fire times throws.
    await t.db.kysely.updateTable('schedules').set({ timezone: 'Mars/Olympus_Mons' }).where('id', '=', b.id).execute();
    t.clock.set(Date.parse(a.next_fire_at) + 400);
    await t.app.modules.scheduler.services.newWorker('stale-zone').runOnce();
    expect(await occurrences(a.id)).toEqual([{ fire_at: Date.parse(a.next_fire_at), outcome: 'started' }]);
    expect(await occurrences(c.id)).toEqual([{ fire_at: Date.parse(c.next_fire_at), outcome: 'started' }]);
    expect(await occurrences(b.id)).toEqual([]);
    expect(await held(b.id)).not.toBeNull();
    expect(await held(a.id)).toBeNull();
    await endRuns('finished');
    await removeSchedules([a.id, b.id, c.id]);
  });

  test('a batch whose write fails for one schedule is written one by one: the others are recorded', async () => {
    const [a, b, c] = [await schedule(), await schedule(), await schedule()];
    // The database refuses b's occurrence (a trigger stands in for any row-level failure).
    if (t.db.dialect === 'postgres') {
      await sql`create function refuse_occurrence() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`.execute(t.db.kysely);
      await sql`create trigger refuse_b before insert on schedule_occurrences for each row when (new.schedule_id = ${sql.lit(b.id)}) execute function refuse_occurrence()`.execute(t.db.kysely);
    } else {
      await sql`create trigger refuse_b before insert on schedule_occurrences when new.schedule_id = ${sql.lit(b.id)} begin select raise(abort, 'refused'); end`.execute(t.db.kysely);
    }
    try {
      t.clock.set(Date.parse(a.next_fire_at) + 400);
      await t.app.modules.scheduler.services.newWorker('refused').runOnce();
    } finally {
      await sql`drop trigger refuse_b${sql.raw(t.db.dialect === 'postgres' ? ' on schedule_occurrences' : '')}`.execute(t.db.kysely);
      if (t.db.dialect === 'postgres') await sql`drop function refuse_occurrence()`.execute(t.db.kysely);
    }
    expect(await occurrences(a.id)).toEqual([{ fire_at: Date.parse(a.next_fire_at), outcome: 'started' }]);
    expect(await occurrences(c.id)).toEqual([{ fire_at: Date.parse(c.next_fire_at), outcome: 'started' }]);
    expect(await occurrences(b.id)).toEqual([]);
    // b's next fire time did not move and its lease still holds it: it is tried again when the lease lapses.
    expect(await held(b.id)).not.toBeNull();
    await endRuns('finished');
    await removeSchedules([a.id, b.id, c.id]);
  });
});
