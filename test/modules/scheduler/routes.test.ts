// The scheduler's application routes: create, read, list, edit, enable, delete; every error
// answer; others' ids 404; a key 401; deleting a schedule's target disables it.
import { beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { useAppAndUser } from '../../helpers/app-user.js';
import { createCloudDevice, createDevice, createGroup, createMacro } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';

// The day before Berlin's spring change; the clock only moves forward, within the trial.
const world = useAppAndUser({ env: { RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' }, clock: new ManualClock(Date.parse('2026-03-27T12:00:00Z')) });
let stranger: SignedUpUser;
beforeAll(async () => {
  stranger = await signUp(world.t.app);
});

const inject = (user: SignedUpUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  world.t.app.inject({ method, url, headers: user.auth, ...(payload ? { payload } : {}) });

async function basics(user = world.user) {
  const macro = await createMacro(world.t.app, user, { name: 'Daily check', kind: 'block' });
  const device = await createCloudDevice(world.t.app, user, { name: 'Sched phone' });
  return { macroId: macro.id as number, deviceId: device.id as number };
}

async function created(payload: object, user = world.user) {
  const res = await inject(user, 'POST', '/api/schedules', payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A refusal that changed nothing (same count before and after). */
async function refused(payload: object, status: number, code: string, path?: string) {
  const before = await world.t.db.kysely.selectFrom('schedules').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const res = await inject(world.user, 'POST', '/api/schedules', payload);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().details.code).toBe(code);
  if (path) expect(res.json().details.errors[0].path).toBe(path);
  const after = await world.t.db.kysely.selectFrom('schedules').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  expect(Number(after.n)).toBe(Number(before.n));
}

describe('creating and reading', () => {
  test('a device schedule in Berlin shows its next five fire times with the offset', async () => {
    const { macroId, deviceId } = await basics();
    const s = await created({ macro_id: macroId, device_id: deviceId, cron: '30 2 * * *', timezone: 'Europe/Berlin', args: { greeting: 'hi' } });
    expect(s).toMatchObject({ name: 'Daily check', macro_id: macroId, device_id: deviceId, cron: '30 2 * * *', timezone: 'Europe/Berlin', args: { greeting: 'hi' }, enabled: true });
    expect(s.group_id).toBeUndefined();
    expect(s.disabled_reason).toBeUndefined();
    // 29 March 02:30 does not exist in Berlin (clocks jump 02:00 → 03:00): skipped, not moved.
    expect(s.next_fires).toEqual(['2026-03-28T02:30:00+01:00', '2026-03-30T02:30:00+02:00', '2026-03-31T02:30:00+02:00', '2026-04-01T02:30:00+02:00', '2026-04-02T02:30:00+02:00']);
    expect(s.next_fire_at).toBe('2026-03-28T01:30:00.000Z');
    const read = await inject(world.user, 'GET', `/api/schedules/${s.id}`);
    expect(read.json()).toEqual(s);
  });

  test('a group schedule on a cloud group; UTC by default', async () => {
    const { macroId } = await basics();
    const group = await createGroup(world.t.app, world.user, { name: 'Farm', kind: 'cloud' });
    const s = await created({ macro_id: macroId, group_id: group.id, cron: '*/15 * * * *', name: 'Every quarter' });
    expect(s).toMatchObject({ name: 'Every quarter', group_id: group.id, timezone: 'UTC', enabled: true });
    expect(s.next_fires).toHaveLength(5);
    expect(s.next_fires[0]).toMatch(/:(00|15|30|45):00\+00:00$/);
  });

  test('created disabled: no next fire times', async () => {
    const { macroId, deviceId } = await basics();
    const s = await created({ macro_id: macroId, device_id: deviceId, cron: '0 * * * *', enabled: false });
    expect(s.enabled).toBe(false);
    expect(s.next_fire_at).toBeUndefined();
    expect(s.next_fires).toBeUndefined();
    expect(s.disabled_reason).toBeUndefined();
  });
});

describe('refusals change nothing', () => {
  test('invalid cron, a seconds field, unknown zone: 422 naming the field', async () => {
    const { macroId, deviceId } = await basics();
    await refused({ macro_id: macroId, device_id: deviceId, cron: '61 * * * *' }, 422, 'validation_failed', 'body.cron');
    await refused({ macro_id: macroId, device_id: deviceId, cron: '0 0 * * * *' }, 422, 'validation_failed', 'body.cron');
    await refused({ macro_id: macroId, device_id: deviceId, cron: 'every day' }, 422, 'validation_failed', 'body.cron');
    await refused({ macro_id: macroId, device_id: deviceId, cron: '* * * * *', timezone: 'Europe/Atlantis' }, 422, 'validation_failed', 'body.timezone');
  });

  test('a cron that can never fire (30/31 February, 31 April…): 422 naming cron', async () => {
    const { macroId, deviceId } = await basics();
    for (const cron of ['0 0 31 2 *', '0 0 30 2 *', '0 0 31 4,6,9,11 *']) {
      await refused({ macro_id: macroId, device_id: deviceId, cron, timezone: 'Europe/Berlin' }, 422, 'validation_failed', 'body.cron');
    }
    // Rare days still fire.
    for (const cron of ['0 0 29 2 *', '0 0 31 2 1']) await created({ macro_id: macroId, device_id: deviceId, cron });
    const s = await created({ macro_id: macroId, device_id: deviceId, cron: '0 0 * * *' });
    const edited = await inject(world.user, 'PUT', `/api/schedules/${s.id}`, { cron: '0 0 31 4,6,9,11 *' });
    expect(edited.statusCode, edited.body).toBe(422);
    expect(edited.json().details.errors[0]).toEqual({ path: 'body.cron', message: expect.stringContaining('never fires') });
    const still = await inject(world.user, 'GET', `/api/schedules/${s.id}`);
    expect(still.json()).toMatchObject({ cron: '0 0 * * *', next_fire_at: s.next_fire_at });
  });

  test('both or neither target, a byod group, wrong types, unknown fields: 422', async () => {
    const { macroId, deviceId } = await basics();
    const byod = await createGroup(world.t.app, world.user, { kind: 'byod' });
    const cloud = await createGroup(world.t.app, world.user, { kind: 'cloud' });
    await refused({ macro_id: macroId, device_id: deviceId, group_id: cloud.id, cron: '* * * * *' }, 422, 'validation_failed', 'body');
    await refused({ macro_id: macroId, cron: '* * * * *' }, 422, 'validation_failed', 'body');
    await refused({ macro_id: macroId, group_id: byod.id, cron: '* * * * *' }, 422, 'validation_failed', 'body.group_id');
    await refused({ macro_id: String(macroId), device_id: deviceId, cron: '* * * * *' }, 422, 'validation_failed');
    await refused({ macro_id: macroId, device_id: deviceId, cron: '* * * * *', args: [1] }, 422, 'validation_failed');
    await refused({ macro_id: macroId, device_id: deviceId, cron: '* * * * *', seconds: 5 }, 422, 'validation_failed');
  });

  test("someone else's macro, device or group: 404; a local device: 404 not_a_cloud_device", async () => {
    const mine = await basics();
    const theirs = await basics(stranger);
    const theirGroup = await createGroup(world.t.app, stranger, { kind: 'cloud' });
    const local = await createDevice(world.t.app, world.user, { name: 'Desk phone', port: 5556 });
    await refused({ macro_id: theirs.macroId, device_id: mine.deviceId, cron: '* * * * *' }, 404, 'not_found');
    await refused({ macro_id: mine.macroId, device_id: theirs.deviceId, cron: '* * * * *' }, 404, 'not_found');
    await refused({ macro_id: mine.macroId, group_id: theirGroup.id, cron: '* * * * *' }, 404, 'not_found');
    await refused({ macro_id: mine.macroId, device_id: local.id, cron: '* * * * *' }, 404, 'not_a_cloud_device');
  });

  test("someone else's schedule: 404 on every route, and it is unchanged", async () => {
    const theirs = await basics(stranger);
    const s = await created({ macro_id: theirs.macroId, device_id: theirs.deviceId, cron: '0 * * * *' }, stranger);
    for (const [method, url, payload] of [
      ['GET', `/api/schedules/${s.id}`],
      ['PUT', `/api/schedules/${s.id}`, { enabled: false }],
      ['DELETE', `/api/schedules/${s.id}`],
      ['GET', `/api/schedules/${s.id}/occurrences`],
    ] as const) {
      const res = await inject(world.user, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().details.code).toBe('not_found');
    }
    expect((await inject(stranger, 'GET', `/api/schedules/${s.id}`)).json()).toEqual(s);
    const list = await inject(world.user, 'GET', '/api/schedules?page_size=200');
    expect(list.json().rows.map((r: { id: number }) => r.id)).not.toContain(s.id);
  });

  test('a key on the application routes: 401 missing_credentials', async () => {
    const { key } = await createKey(world.t.app, stranger, { name: 'script' });
    for (const [method, url] of [['GET', '/api/schedules'], ['POST', '/api/schedules'], ['GET', '/api/schedules/1/occurrences']] as const) {
      const res = await world.t.app.inject({ method, url, headers: withKey(key), payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode).toBe(401);
      expect(res.json().details.code).toBe('missing_credentials');
    }
  });

  test('at most 100 schedules per account: 422 schedule_limit_reached', async () => {
    const user = await signUp(world.t.app);
    const { macroId, deviceId } = await basics(user);
    await created({ macro_id: macroId, device_id: deviceId, cron: '0 * * * *' }, user);
    const first = await world.t.db.kysely.selectFrom('schedules').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const { id, ...copy } = first;
    expect(id).toBeGreaterThan(0);
    await world.t.db.kysely.insertInto('schedules').values(Array.from({ length: 99 }, () => copy)).execute();
    const res = await inject(user, 'POST', '/api/schedules', { macro_id: macroId, device_id: deviceId, cron: '0 * * * *' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toMatchObject({ code: 'schedule_limit_reached', limit: 100 });
    expect((await inject(user, 'GET', '/api/schedules')).json().total_rows).toBe(100);
  });
});

describe('editing, disabling and deleting', () => {
  test('a new cron recomputes the next fire; a rename keeps it; a bad edit is refused', async () => {
    const { macroId, deviceId } = await basics();
    world.t.clock.set(Date.parse('2026-03-28T10:07:00Z'));
    const s = await created({ macro_id: macroId, device_id: deviceId, cron: '0 * * * *' });
    expect(s.next_fire_at).toBe('2026-03-28T11:00:00.000Z');
    const edited = await inject(world.user, 'PUT', `/api/schedules/${s.id}`, { cron: '30 9 * * *', timezone: 'America/New_York' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ cron: '30 9 * * *', timezone: 'America/New_York', next_fire_at: '2026-03-28T13:30:00.000Z' });
    expect(edited.json().next_fires[0]).toBe('2026-03-28T09:30:00-04:00');
    const bad = await inject(world.user, 'PUT', `/api/schedules/${s.id}`, { cron: '* * *' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details.errors[0].path).toBe('body.cron');
    const empty = await inject(world.user, 'PUT', `/api/schedules/${s.id}`, {});
    expect(empty.statusCode).toBe(422);
    world.t.clock.set(Date.parse('2026-03-28T12:00:00Z'));
    const renamed = await inject(world.user, 'PUT', `/api/schedules/${s.id}`, { name: 'Morning' });
    expect(renamed.json()).toMatchObject({ name: 'Morning', next_fire_at: '2026-03-28T13:30:00.000Z' });
  });

  test('disable, enable (next fire from now), filters by enabled and macro, delete', async () => {
    const { macroId, deviceId } = await basics();
    world.t.clock.set(Date.parse('2026-03-29T00:00:30Z'));
    const s = await created({ macro_id: macroId, device_id: deviceId, cron: '0 0 * * *' });
    const off = await inject(world.user, 'PUT', `/api/schedules/${s.id}`, { enabled: false });
    expect(off.json()).toMatchObject({ enabled: false });
    expect(off.json().next_fires).toBeUndefined();
    expect((await inject(world.user, 'GET', `/api/schedules?macro_id=${macroId}&enabled=false`)).json().rows.map((r: { id: number }) => r.id)).toEqual([s.id]);
    expect((await inject(world.user, 'GET', `/api/schedules?macro_id=${macroId}&enabled=true`)).json().rows).toEqual([]);
    world.t.clock.set(Date.parse('2026-04-02T12:00:00Z'));
    const on = await inject(world.user, 'PUT', `/api/schedules/${s.id}`, { enabled: true });
    expect(on.json()).toMatchObject({ enabled: true, next_fire_at: '2026-04-03T00:00:00.000Z' });
    expect((await inject(world.user, 'DELETE', `/api/schedules/${s.id}`)).statusCode).toBe(204);
    expect((await inject(world.user, 'GET', `/api/schedules/${s.id}`)).statusCode).toBe(404);
    expect((await inject(world.user, 'DELETE', `/api/schedules/${s.id}`)).statusCode).toBe(404);
  });

  test('deleting the macro, group or device disables its schedules with the reason', async () => {
    const { macroId, deviceId } = await basics();
    const group = await createGroup(world.t.app, world.user, { kind: 'cloud' });
    const byMacro = await created({ macro_id: macroId, device_id: deviceId, cron: '0 * * * *' });
    const other = await createMacro(world.t.app, world.user, { name: 'Other', kind: 'block' });
    const byGroup = await created({ macro_id: other.id, group_id: group.id, cron: '0 * * * *' });
    const plain = await createDevice(world.t.app, world.user, { name: 'x', port: 5999 });
    expect(plain.id).toBeGreaterThan(0);

    expect((await inject(world.user, 'DELETE', `/api/macros/${macroId}`)).statusCode).toBe(204);
    const afterMacro = (await inject(world.user, 'GET', `/api/schedules/${byMacro.id}`)).json();
    expect(afterMacro).toMatchObject({ enabled: false, disabled_reason: 'macro_deleted', device_id: deviceId });
    expect(afterMacro.macro_id).toBeUndefined();
    expect(afterMacro.next_fires).toBeUndefined();
    const enable = await inject(world.user, 'PUT', `/api/schedules/${byMacro.id}`, { enabled: true });
    expect(enable.statusCode).toBe(422);
    expect(enable.json().details.errors[0].path).toBe('body.macro_id');
    const fixed = await inject(world.user, 'PUT', `/api/schedules/${byMacro.id}`, { enabled: true, macro_id: other.id });
    expect(fixed.json()).toMatchObject({ enabled: true, macro_id: other.id });
    expect(fixed.json().disabled_reason).toBeUndefined();

    expect((await world.t.app.inject({ method: 'DELETE', url: `/api/emulator/groups/${group.id}`, headers: world.user.auth })).statusCode).toBe(204);
    expect((await inject(world.user, 'GET', `/api/schedules/${byGroup.id}`)).json()).toMatchObject({ enabled: false, disabled_reason: 'group_deleted' });

    // A cloud device's delete finishes in the background (its lifecycle job); once it is gone, so is the reference.
    await world.t.db.kysely.deleteFrom('devices').where('id', '=', deviceId).execute();
    expect((await inject(world.user, 'GET', `/api/schedules/${byMacro.id}`)).json()).toMatchObject({ enabled: false, disabled_reason: 'device_deleted' });
  });
});
