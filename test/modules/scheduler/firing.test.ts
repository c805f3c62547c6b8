// The scheduler worker on an injected clock: a device schedule starts a run (linked by
// execution_id and run_id), a busy device is skipped, a group fans out at fire time, downtime
// follows the grace rule, a daylight-saving night in Berlin, five failed runs disable the
// schedule, and three workers racing on one
// database (separate connections on PostgreSQL) record exactly one occurrence per fire time
// and device and start each run once.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp } from '../../helpers/app.js';
import { createCloudDevice, createGroup } from '../../helpers/resources.js';
import type { SignedUpUser } from '../../helpers/users.js';
import { type App, schedulerWorld } from './helpers/scheduler-world.js';

const w = schedulerWorld();
const { worker, device, schedule, occurrences, endRuns } = w;
let t: App;
let user: SignedUpUser;
let macroId: number;
beforeAll(() => {
  ({ t, user, macroId } = w);
});

describe('firing', () => {
  test('a device schedule starts a run at its fire time, linked both ways; a busy device is skipped', async () => {
    const deviceId = await device();
    const s = await schedule({ device_id: deviceId, cron: '* * * * *' });
    expect(await worker().runOnce()).toBe(0); // not due yet
    t.clock.set(Date.parse(s.next_fire_at) + 1500);
    expect(await worker().runOnce()).toBe(1);
    const [first] = await occurrences(s.id);
    expect(first).toMatchObject({ fire_at: s.next_fire_at, device_id: deviceId, outcome: 'started', execution_id: expect.stringMatching(/^cr_/), run_id: expect.any(Number) });
    const run = await t.app.inject({ url: `/api/hosted/runs/${first!.run_id}`, headers: user.auth });
    expect(run.json()).toMatchObject({ execution_id: first!.execution_id, device_id: deviceId, macro_id: macroId });
    const read = (await t.app.inject({ url: `/api/schedules/${s.id}`, headers: user.auth })).json();
    expect(read.last_fire_at).toBe(s.next_fire_at);
    expect(Date.parse(read.next_fire_at) - Date.parse(s.next_fire_at)).toBe(60_000);

    // The run has not ended (no run worker here): the next minute finds the device busy.
    t.clock.set(Date.parse(read.next_fire_at) + 500);
    await worker().runOnce();
    const [second] = await occurrences(s.id);
    expect(second).toMatchObject({ fire_at: read.next_fire_at, device_id: deviceId, outcome: 'skipped', reason: 'device_busy' });
    expect(second!.run_id).toBeUndefined();
    await t.app.inject({ method: 'DELETE', url: `/api/schedules/${s.id}`, headers: user.auth });
    await endRuns('finished');
  });

  test('a group fans out over its cloud devices at fire time; an empty group says so', async () => {
    const group = await createGroup(t.app, user, { kind: 'cloud', name: 'Fleet' });
    const members: number[] = [];
    for (let i = 0; i < 2; i += 1) members.push((await createCloudDevice(t.app, user, { name: `Member ${i}`, group_id: group.id })).id);
    const s = await schedule({ group_id: group.id, cron: '*/5 * * * *' });
    // Joined after the schedule was made, before it fires: it is included.
    const late = (await createCloudDevice(t.app, user, { name: 'Late', group_id: group.id })).id as number;
    const empty = await createGroup(t.app, user, { kind: 'cloud', name: 'Empty' });
    const e = await schedule({ group_id: empty.id, cron: '*/5 * * * *' });
    t.clock.set(Date.parse(s.next_fire_at) + 200);
    await worker().runOnce();
    const rows = await occurrences(s.id);
    expect(rows.map((r) => r.device_id).sort()).toEqual([...members, late].sort());
    expect(rows.every((r) => r.outcome === 'started' && r.fire_at === s.next_fire_at)).toBe(true);
    expect(new Set(rows.map((r) => r.run_id)).size).toBe(3);
    const none = await occurrences(e.id);
    expect(none).toEqual([expect.objectContaining({ outcome: 'skipped', reason: 'group_empty' })]);
    expect(none[0]!.device_id).toBeUndefined();
    for (const id of [s.id, e.id]) await t.app.inject({ method: 'DELETE', url: `/api/schedules/${id}`, headers: user.auth });
    await endRuns('finished');
  });

  test('after downtime only the latest fire time runs, and only within the grace; the rest are missed', async () => {
    const deviceId = await device();
    const s = await schedule({ device_id: deviceId, cron: '* * * * *' });
    // Down for ten minutes: nine fire times passed unseen, the tenth is 20 s old.
    t.clock.set(Date.parse(s.next_fire_at) + 9 * 60_000 + 20_000);
    await worker().runOnce();
    const rows = await occurrences(s.id);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toMatchObject({ outcome: 'started' });
    expect(rows.slice(1).every((r) => r.outcome === 'missed' && r.reason === 'missed_downtime')).toBe(true);
    await endRuns('finished');

    const hourly = await schedule({ device_id: await device(), cron: '0 * * * *' });
    // Down past two fire times; the latest is ten minutes old, past the five-minute grace.
    t.clock.set(Date.parse(hourly.next_fire_at) + 70 * 60_000);
    await worker().runOnce();
    const missed = await occurrences(hourly.id);
    expect(missed.map((r) => [r.outcome, r.reason])).toEqual([['missed', 'past_grace'], ['missed', 'missed_downtime']]);
    const read = (await t.app.inject({ url: `/api/schedules/${hourly.id}`, headers: user.auth })).json();
    expect(Date.parse(read.next_fire_at)).toBe(Date.parse(hourly.next_fire_at) + 2 * 3_600_000);
    for (const id of [s.id, hourly.id]) await t.app.inject({ method: 'DELETE', url: `/api/schedules/${id}`, headers: user.auth });
  });

  test("Berlin's spring-forward night: 02:30 does not exist on 29 March and fires nowhere", async () => {
    t.clock.set(Date.parse('2026-03-28T00:00:00Z'));
    const s = await schedule({ device_id: await device(), cron: '30 2 * * *', timezone: 'Europe/Berlin' });
    // An hour at a time through three nights, with a worker every hour.
    for (let at = Date.parse('2026-03-28T00:10:00Z'); at < Date.parse('2026-03-31T00:00:00Z'); at += 3_600_000) {
      t.clock.set(at);
      await worker().runOnce();
      await endRuns('finished');
    }
    const fired = (await occurrences(s.id)).map((r) => r.fire_at).reverse();
    // 28 March 02:30 CET, nothing on the 29th, 30 March 02:30 CEST (the window ends before the 31st's).
    expect(fired).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
    await t.app.inject({ method: 'DELETE', url: `/api/schedules/${s.id}`, headers: user.auth });
  });

  test('five failed runs in a row disable the schedule (failing) instead of starting a sixth; enabling starts afresh', async () => {
    const s = await schedule({ device_id: await device(), cron: '* * * * *' });
    let next = Date.parse(s.next_fire_at);
    for (let i = 0; i < 5; i += 1) {
      t.clock.set(next + 100);
      await worker().runOnce();
      await endRuns('failed');
      next += 60_000;
    }
    t.clock.set(next + 100);
    await worker().runOnce();
    const read = (await t.app.inject({ url: `/api/schedules/${s.id}`, headers: user.auth })).json();
    expect(read).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    expect((await occurrences(s.id)).filter((r) => r.outcome === 'started')).toHaveLength(5);
    const on = await t.app.inject({ method: 'PUT', url: `/api/schedules/${s.id}`, headers: user.auth, payload: { enabled: true } });
    expect(on.json().disabled_reason).toBeUndefined();
    t.clock.set(Date.parse(on.json().next_fire_at) + 100);
    await worker().runOnce();
    expect((await occurrences(s.id))[0]).toMatchObject({ outcome: 'started' });
    await endRuns('finished');
    await t.app.inject({ method: 'DELETE', url: `/api/schedules/${s.id}`, headers: user.auth });
  });
});

describe('three workers racing', () => {
  const apps: App[] = [];
  beforeAll(async () => {
    // On PostgreSQL each worker gets its own app and connection pool on the same schema; on SQLite one process owns the work.
    apps.push(t);
    if (t.db.dialect === 'postgres') for (let i = 0; i < 2; i += 1) apps.push(await createTestApp({ shareWith: t.storage, clock: t.clock, env: { SCHEDULER_BATCH: '4' } }));
  });
  afterAll(async () => {
    for (const app of apps.slice(1)) await app.close();
  });

  test('exactly one occurrence per fire time and device, and each run started once', async () => {
    const s0 = Date.parse('2026-03-31T06:00:00Z');
    t.clock.set(s0 - 30_000);
    const group = await createGroup(t.app, user, { kind: 'cloud', name: 'Race' });
    const schedules = [];
    for (let i = 0; i < 12; i += 1) schedules.push(await schedule({ device_id: await device(), cron: '* * * * *' }));
    for (let i = 0; i < 3; i += 1) await createCloudDevice(t.app, user, { name: `Race ${i}`, group_id: group.id });
    schedules.push(await schedule({ group_id: group.id, cron: '* * * * *' }));
    const workers = [0, 1, 2].map((i) => worker(apps[i % apps.length], `racer-${i}`));
    for (let minute = 0; minute < 4; minute += 1) {
      t.clock.set(s0 + minute * 60_000 + 250);
      await Promise.all(workers.map((w) => w.runOnce()));
      await endRuns('finished');
    }
    const rows = await t.db.kysely.selectFrom('schedule_occurrences').selectAll().where('schedule_id', 'in', schedules.map((s) => s.id)).execute();
    // 12 device schedules and one group of three, four minutes: 60 occurrences, none missing, none twice.
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((r) => `${r.schedule_id}/${r.fire_at}/${r.device_id}`)).size).toBe(60);
    expect(rows.every((r) => r.outcome === 'started')).toBe(true);
    const runIds = rows.map((r) => r.run_id);
    expect(new Set(runIds).size).toBe(60);
    const runs = await t.db.kysely.selectFrom('cloud_runs').select('id').where('id', 'in', runIds as number[]).execute();
    expect(runs).toHaveLength(60);
    // No run on these devices that no occurrence accounts for (a loser of a race started nothing).
    const devices = [...new Set(rows.map((r) => r.device_id))];
    expect(devices).toHaveLength(15);
    const allRuns = await t.db.kysely.selectFrom('cloud_runs').select('id').where('device_id', 'in', devices).execute();
    expect(allRuns).toHaveLength(60);
  });
});
