// Devices and groups: application changes; key listing with filters, sorting and paging.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createCloudDevice, createDevice, createGroup, createMacro, updateDevice } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';

let t: TestApp;
let user: SignedUpUser;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  user = await signUp(t.app);
  key = (await createKey(t.app, user, { scopes: ['devices:control'] })).key;
});
afterAll(() => t.close());

const listDevices = async (k: string, query = '') => {
  const res = await t.app.inject({ url: `/api/emulator/devices${query}`, headers: withKey(k) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const listGroups = async (k: string, query = '') => {
  const res = await t.app.inject({ url: `/api/emulator/groups${query}`, headers: withKey(k) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const names = (page: { rows: { name: string }[] }) => page.rows.map((r) => r.name);

describe('groups', () => {
  test('create, rename, describe and delete; deleting keeps the devices, ungrouped', async () => {
    const group = await createGroup(t.app, user, { name: 'Farm', description: 'racks' });
    expect(group).toMatchObject({ name: 'Farm', description: 'racks', kind: 'byod', no_of_devices: 0 });
    const device = await createDevice(t.app, user, { group_id: group.id });
    const renamed = await t.app.inject({ method: 'PUT', url: `/api/emulator/groups/${group.id}`, headers: user.auth, payload: { name: 'Farm 2', description: null } });
    expect(renamed.json()).toMatchObject({ name: 'Farm 2', no_of_devices: 1 });
    expect(renamed.json().description).toBeUndefined();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/emulator/groups/${group.id}`, headers: user.auth })).statusCode).toBe(204);
    const kept = (await listDevices(key)).rows.find((d: { id: number }) => d.id === device.id);
    expect(kept).toBeDefined();
    expect(kept.group_id).toBeUndefined();
  });

  test("another account's group answers 404 and cannot be used", async () => {
    const other = await signUp(t.app);
    const theirs = await createGroup(t.app, other);
    expect((await t.app.inject({ method: 'PUT', url: `/api/emulator/groups/${theirs.id}`, headers: user.auth, payload: { name: 'x' } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/emulator/groups/${theirs.id}`, headers: user.auth })).statusCode).toBe(404);
    const res = await t.app.inject({ method: 'POST', url: '/api/emulator/devices', headers: user.auth, payload: { name: 'x', port: 1, group_id: theirs.id } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.errors[0].path).toBe('body.group_id');
  });

  test('no_of_devices is right after every change', async () => {
    const u = await signUp(t.app);
    const k = (await createKey(t.app, u)).key;
    const a = await createGroup(t.app, u, { name: 'a' });
    const b = await createGroup(t.app, u, { name: 'b' });
    const d1 = await createDevice(t.app, u, { group_id: a.id });
    await createDevice(t.app, u, { group_id: a.id });
    const count = async () => Object.fromEntries((await listGroups(k)).rows.map((g: { name: string; no_of_devices: number }) => [g.name, g.no_of_devices]));
    expect(await count()).toEqual({ a: 2, b: 0 });
    await updateDevice(t.app, u, d1.id, { group_id: b.id });
    expect(await count()).toEqual({ a: 1, b: 1 });
    await t.app.inject({ method: 'DELETE', url: `/api/emulator/devices/${d1.id}`, headers: u.auth });
    expect(await count()).toEqual({ a: 1, b: 0 });
  });

  test('list filters by name and description, sorts, and pages without repeats', async () => {
    const u = await signUp(t.app);
    const k = (await createKey(t.app, u)).key;
    const made = [];
    for (const [name, description] of [['Beta', 'night shift'], ['alpha', 'Day'], ['gamma', 'NIGHT owls'], ['Alpha', '50% off']]) {
      made.push(await createGroup(t.app, u, { name, description }));
      t.clock.advance(1000);
    }
    await createDevice(t.app, u, { group_id: made[2].id });
    await createDevice(t.app, u, { group_id: made[2].id });
    await createDevice(t.app, u, { group_id: made[0].id });
    expect(names(await listGroups(k))).toEqual(['alpha', 'Alpha', 'Beta', 'gamma']); // ties in name broken by id
    expect(names(await listGroups(k, '?sort=-name'))).toEqual(['gamma', 'Beta', 'Alpha', 'alpha']);
    expect(names(await listGroups(k, '?sort=-no_of_devices'))).toEqual(['gamma', 'Beta', 'Alpha', 'alpha']);
    expect(names(await listGroups(k, '?sort=created_at'))).toEqual(['Beta', 'alpha', 'gamma', 'Alpha']);
    expect(names(await listGroups(k, '?description=night'))).toEqual(['Beta', 'gamma']);
    expect(names(await listGroups(k, `?description=${encodeURIComponent('%')}`))).toEqual(['Alpha']);
    expect(names(await listGroups(k, '?name=ALPHA'))).toEqual(['alpha', 'Alpha']);
    const seen = [];
    for (let page = 1; page <= 4; page++) seen.push(...names(await listGroups(k, `?sort=no_of_devices&page_size=1&page=${page}`)));
    expect(new Set(seen).size).toBe(4);
  });

  test('an unknown sort answers 422 naming the allowed values', async () => {
    const res = await t.app.inject({ url: '/api/emulator/groups?sort=color', headers: withKey(key) });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('no_of_devices');
  });
});

describe('devices', () => {
  test("create a device on the user's machine and a cloud device record", async () => {
    const local = await createDevice(t.app, user, { name: 'Pixel 7', port: 5556 });
    expect(local).toMatchObject({ name: 'Pixel 7', port: 5556, run_count: 0, is_hosted: false });
    expect(local.hosted_state).toBeUndefined();
    const cloud = await createCloudDevice(t.app, user, { name: 'Cloud 1' });
    expect(cloud).toMatchObject({ name: 'Cloud 1', run_count: 0, is_hosted: true, hosted_state: 'stopped' });
    expect(cloud.port).toBeUndefined();
  });

  test.each([
    [{ name: 'x', port: 0 }, 'body.port'],
    [{ name: 'x', port: 65536 }, 'body.port'],
    [{ name: 'x', port: '5555' }, 'body.port'],
    [{ port: 5555 }, 'body.name'],
  ])('%j answers 422 naming %s', async (payload, path) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/emulator/devices', headers: user.auth, payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  test('groups must match the device kind', async () => {
    const cloudGroup = await createGroup(t.app, user, { kind: 'cloud' });
    const byodGroup = await createGroup(t.app, user, { kind: 'byod' });
    expect((await t.app.inject({ method: 'POST', url: '/api/emulator/devices', headers: user.auth, payload: { name: 'x', port: 1, group_id: cloudGroup.id } })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'POST', url: '/api/hosted/devices', headers: user.auth, payload: { name: 'x', group_id: byodGroup.id } })).statusCode).toBe(422);
    expect((await createCloudDevice(t.app, user, { group_id: cloudGroup.id })).group_id).toBe(cloudGroup.id);
  });

  test("following a code macro follows its Default profile, or the profile given", async () => {
    const macro = await createMacro(t.app, user, { kind: 'python' });
    const device = await createDevice(t.app, user);
    const res = await updateDevice(t.app, user, device.id, { macro_id: macro.id });
    expect(res.statusCode).toBe(200);
    const defaultId = res.json().profile_id;
    const profile = await t.db.kysely.selectFrom('macro_setting_profiles').selectAll().where('id', '=', defaultId).executeTakeFirstOrThrow();
    expect(profile).toMatchObject({ macro_id: macro.id, name: 'Default', is_default: 1 });
    // A second device shares the one Default.
    const other = await createDevice(t.app, user);
    expect((await updateDevice(t.app, user, other.id, { macro_id: macro.id })).json().profile_id).toBe(defaultId);
    // An explicit profile of that macro.
    const now = t.clock.now();
    const custom = await t.db.kysely
      .insertInto('macro_setting_profiles')
      .values({ user_id: user.id, macro_id: macro.id, name: 'Fast', args: '{}', is_default: 0, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await updateDevice(t.app, user, device.id, { profile_id: custom.id })).json()).toMatchObject({ macro_id: macro.id, profile_id: custom.id });
    // Renaming keeps what the device follows.
    expect((await updateDevice(t.app, user, device.id, { name: 'renamed' })).json().profile_id).toBe(custom.id);
    // profile_id null goes back to Default; macro_id null follows nothing.
    expect((await updateDevice(t.app, user, device.id, { profile_id: null })).json().profile_id).toBe(defaultId);
    const cleared = (await updateDevice(t.app, user, device.id, { macro_id: null })).json();
    expect(cleared.macro_id).toBeUndefined();
    expect(cleared.profile_id).toBeUndefined();
  });

  test('a block macro has no profile; profiles of other macros and others\' macros are refused', async () => {
    const block = await createMacro(t.app, user, { kind: 'block' });
    const code = await createMacro(t.app, user, { kind: 'python' });
    const device = await createDevice(t.app, user);
    expect((await updateDevice(t.app, user, device.id, { macro_id: block.id })).json()).toMatchObject({ macro_id: block.id });
    expect((await updateDevice(t.app, user, device.id, { macro_id: block.id })).json().profile_id).toBeUndefined();
    const codeDevice = (await updateDevice(t.app, user, (await createDevice(t.app, user)).id, { macro_id: code.id })).json();
    const wrong = await updateDevice(t.app, user, device.id, { macro_id: block.id, profile_id: codeDevice.profile_id });
    expect(wrong.statusCode).toBe(422);
    const other = await signUp(t.app);
    const theirs = await createMacro(t.app, other);
    const foreign = await updateDevice(t.app, user, device.id, { macro_id: theirs.id });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().details.errors[0].path).toBe('body.macro_id');
    expect((await updateDevice(t.app, user, device.id, { profile_id: 1 })).statusCode).toBe(422);
  });

  test("another account's device answers 404 to change and delete", async () => {
    const other = await signUp(t.app);
    const theirs = await createDevice(t.app, other);
    expect((await updateDevice(t.app, user, theirs.id, { name: 'mine now' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/emulator/devices/${theirs.id}`, headers: user.auth })).statusCode).toBe(404);
  });

  test('a cloud device is not deleted through the local-device route', async () => {
    const cloud = await createCloudDevice(t.app, user);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/emulator/devices/${cloud.id}`, headers: user.auth });
    expect(res.statusCode).toBe(404);
    expect(res.json().details.code).toBe('not_a_local_device');
  });
});

describe('GET /api/emulator/devices', () => {
  test('filters by macro, group and name; sorts; pages; only the caller\'s', async () => {
    const u = await signUp(t.app);
    const k = (await createKey(t.app, u, { scopes: ['devices:control'] })).key;
    const group = await createGroup(t.app, u);
    const macro = await createMacro(t.app, u);
    const d = [];
    for (const [name, port] of [['pixel b', 5002], ['Pixel A', 5001], ['galaxy_1', 5003], ['Galaxy 2', 5000]] as const) {
      d.push(await createDevice(t.app, u, { name, port, ...(name.startsWith('gal') || name.startsWith('Gal') ? { group_id: group.id } : {}) }));
      t.clock.advance(1000);
    }
    await createCloudDevice(t.app, u, { name: 'cloud' });
    await updateDevice(t.app, u, d[0].id, { macro_id: macro.id });
    await createDevice(t.app, await signUp(t.app), { name: 'pixel of someone else' });

    expect(names(await listDevices(k))).toEqual(['cloud', 'Galaxy 2', 'galaxy_1', 'Pixel A', 'pixel b']);
    expect(names(await listDevices(k, '?sort=port'))).toEqual(['Galaxy 2', 'Pixel A', 'pixel b', 'galaxy_1', 'cloud']);
    expect(names(await listDevices(k, '?sort=-port'))).toEqual(['galaxy_1', 'pixel b', 'Pixel A', 'Galaxy 2', 'cloud']);
    expect(names(await listDevices(k, '?sort=-created_at'))).toEqual(['cloud', 'Galaxy 2', 'galaxy_1', 'Pixel A', 'pixel b']);
    expect(names(await listDevices(k, '?name=PIXEL'))).toEqual(['Pixel A', 'pixel b']);
    expect(names(await listDevices(k, '?name=_'))).toEqual(['galaxy_1']);
    expect(names(await listDevices(k, `?group_id=${group.id}`))).toEqual(['Galaxy 2', 'galaxy_1']);
    expect(names(await listDevices(k, `?macro_id=${macro.id}`))).toEqual(['pixel b']);
    const page = await listDevices(k, '?page=2&page_size=2');
    expect(page).toMatchObject({ page: 2, page_size: 2, total_rows: 5, total_pages: 3 });
    expect(names(page)).toEqual(['galaxy_1', 'Pixel A']);
    const row = (await listDevices(k, `?macro_id=${macro.id}`)).rows[0];
    expect(Object.keys(row).sort()).toEqual(['created_at', 'id', 'is_hosted', 'macro_id', 'name', 'port', 'profile_id', 'run_count', 'updated_at']);
  });

  test('ties in the sort field never repeat or skip a row across pages', async () => {
    const u = await signUp(t.app);
    const k = (await createKey(t.app, u)).key;
    for (let i = 0; i < 7; i++) await createDevice(t.app, u, { name: 'same', port: 5000 });
    for (const sort of ['name', '-name', 'port', 'run_count', '-created_at']) {
      const ids = [];
      for (let page = 1; page <= 4; page++) ids.push(...(await listDevices(k, `?sort=${sort}&page_size=2&page=${page}`)).rows.map((r: { id: number }) => r.id));
      expect(ids).toHaveLength(7);
      expect(new Set(ids).size).toBe(7);
    }
  });

  test.each(['sort=colour', 'page_size=500', 'macro_id=abc', 'group_id=-1', 'unknown=1'])('%s answers 422', async (query) => {
    const res = await t.app.inject({ url: `/api/emulator/devices?${query}`, headers: withKey(key) });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.code).toBe('validation_failed');
  });

  test("a key without devices:control answers 403; the owner's session is admitted (decision 0006)", async () => {
    const runsOnly = (await createKey(t.app, user, { scopes: ['runs:read'] })).key;
    const res = await t.app.inject({ url: '/api/emulator/devices', headers: withKey(runsOnly) });
    expect(res.statusCode).toBe(403);
    expect(res.json().details.required_scopes).toEqual(['devices:control']);
    expect((await t.app.inject({ url: '/api/emulator/groups', headers: user.auth })).statusCode).toBe(200);
  });
});
