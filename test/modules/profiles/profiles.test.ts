// Settings profiles (full-access keys only): Default on first read, create, rename, replace
// args, delete with devices moved to Default, the 64 KB limit, ownership and scope.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createKey, type SignedUpUser, signUp, withKey } from '../../helpers/users.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const URL_BASE = '/api/macro-setting-profiles';
const PROFILE_FIELDS = ['args', 'created_at', 'devices_using', 'id', 'is_default', 'macro_id', 'name', 'updated_at'];

interface Account {
  user: SignedUpUser;
  /** Headers with a full-access key. */
  key: Record<string, string>;
}

interface ProfileBody {
  id: number;
  name: string;
  args: Record<string, unknown>;
  is_default: boolean;
  devices_using: number;
  created_at: string;
  updated_at: string;
}

/** A fresh account per test keeps each test inside the per-key and per-account rate limits. */
async function account(): Promise<Account> {
  const user = await signUp(t.app);
  return { user, key: withKey((await createKey(t.app, user)).key) };
}

async function createMacro(a: Account, kind: 'python' | 'block' = 'python'): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: '/api/macros', headers: a.user.auth, payload: { name: 'Farm bot', kind } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function createDevice(a: Account, port: number): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: '/api/emulator/devices', headers: a.user.auth, payload: { name: `Pixel ${port}`, port } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function follow(a: Account, deviceId: number, payload: { macro_id: number; profile_id?: number }): Promise<void> {
  const res = await t.app.inject({ method: 'PUT', url: `/api/emulator/devices/${deviceId}`, headers: a.user.auth, payload });
  expect(res.statusCode, res.body).toBe(200);
}

const list = (a: Account, macroId: number | string) => t.app.inject({ url: `${URL_BASE}?macro_id=${macroId}`, headers: a.key });
const create = (a: Account, payload: object) => t.app.inject({ method: 'POST', url: URL_BASE, headers: a.key, payload });
const update = (a: Account, id: number | string, payload: object) => t.app.inject({ method: 'PUT', url: `${URL_BASE}/${id}`, headers: a.key, payload });
const remove = (a: Account, id: number | string) => t.app.inject({ method: 'DELETE', url: `${URL_BASE}/${id}`, headers: a.key });

async function items(a: Account, macroId: number): Promise<ProfileBody[]> {
  const res = await list(a, macroId);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items;
}

async function createProfile(a: Account, macroId: number, name: string, args?: object): Promise<ProfileBody> {
  const res = await create(a, { macro_id: macroId, name, ...(args ? { args } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const defaultOf = async (a: Account, macroId: number) => (await items(a, macroId))[0];
const rowsOf = (macroId: number) => t.db.kysely.selectFrom('macro_setting_profiles').selectAll().where('macro_id', '=', macroId).orderBy('id').execute();
const now = () => new Date(t.clock.now()).toISOString();

function expectError(res: { statusCode: number; json(): { details: { code: string } } }, status: number, code: string) {
  expect([res.statusCode, res.json().details.code]).toEqual([status, code]);
}

function expectInvalid(res: { statusCode: number; json(): { details: { code: string; errors: { path: string }[] } } }, path: string) {
  expectError(res, 422, 'validation_failed');
  expect(res.json().details.errors.map((e) => e.path)).toContain(path);
}

describe('GET /api/macro-setting-profiles', () => {
  test('creates Default on the first read, and lists that same one afterwards', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    expect(await rowsOf(macroId)).toEqual([]);
    const res = await list(a, macroId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      items: [{ id: expect.any(Number), macro_id: macroId, name: 'Default', args: {}, is_default: true, devices_using: 0, created_at: now(), updated_at: now() }],
    });
    const again = await items(a, macroId);
    expect(again).toEqual(res.json().items);
    expect(await rowsOf(macroId)).toHaveLength(1);
  });

  test('ten concurrent first reads all list one and the same Default', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    const results = await Promise.all(Array.from({ length: 10 }, () => list(a, macroId)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const ids = results.map((r) => r.json().items.map((p: ProfileBody) => p.id));
    expect(ids.every((row) => row.length === 1)).toBe(true);
    expect(new Set(ids.map((row) => row[0])).size).toBe(1);
    expect(await rowsOf(macroId)).toHaveLength(1);
  });

  test('orders Default first, then by name ignoring case in byte order, then by id', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    for (const name of ['beta', 'zulu 10', 'alpha', 'Zulu 2', '_setup', 'Alpha']) await createProfile(a, macroId, name);
    const names = (await items(a, macroId)).map((p) => p.name);
    expect(names).toEqual(['Default', '_setup', 'alpha', 'Alpha', 'beta', 'zulu 10', 'Zulu 2']);
  });

  test("another account's macro, a block macro and a missing macro answer 404 and create nothing", async () => {
    const owner = await account();
    const intruder = await account();
    const macroId = await createMacro(owner);
    const blockId = await createMacro(owner, 'block');
    expectError(await list(intruder, macroId), 404, 'not_found');
    expectError(await list(owner, blockId), 404, 'not_found');
    expectError(await list(owner, macroId + 1000), 404, 'not_found');
    expect(await rowsOf(macroId)).toEqual([]);
    expect(await rowsOf(blockId)).toEqual([]);
  });

  test.each([
    ['', 'query.macro_id'],
    ['?macro_id=abc', 'query.macro_id'],
    ['?macro_id=0', 'query.macro_id'],
    ['?macro_id=1&name=x', 'query.name'],
    // Past 2^53 - 1; PostgreSQL would otherwise get an out-of-range bigint.
    ['?macro_id=9007199254740992', 'query.macro_id'],
    ['?macro_id=100000000000000000000', 'query.macro_id'],
  ])('%s answers 422 naming %s', async (query, path) => {
    const a = await account();
    expectInvalid(await t.app.inject({ url: `${URL_BASE}${query}`, headers: a.key }), path);
  });
});

describe('POST /api/macro-setting-profiles', () => {
  test('creates a profile with a trimmed name and the args as given; args default to {}', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    const args = { speed: 3, nested: { list: [1, 'x', null], on: true }, __cli_args__: '--speed 3' };
    const res = await create(a, { macro_id: macroId, name: '  Fast mode ', args });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(Number), macro_id: macroId, name: 'Fast mode', args, is_default: false, devices_using: 0, created_at: now(), updated_at: now() });
    const bare = await createProfile(a, macroId, 'Bare');
    expect(bare.args).toEqual({});
    const listed = await items(a, macroId);
    expect(listed.map((p) => [p.name, p.is_default])).toEqual([['Default', true], ['Bare', false], ['Fast mode', false]]);
    expect(Object.keys(listed[2]).sort()).toEqual(PROFILE_FIELDS);
    expect(listed[2]).toEqual(res.json());
  });

  test('409 name_taken for a name in use, for "Default", and for names that trim to either', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    await createProfile(a, macroId, 'Night');
    for (const name of ['Night', ' Night ', 'Default', ' Default']) {
      expectError(await create(a, { macro_id: macroId, name }), 409, 'name_taken');
    }
    expect((await rowsOf(macroId)).map((r) => r.name)).toEqual(['Default', 'Night']);
    // Names are unique per macro only.
    const otherMacro = await createMacro(a);
    expect((await createProfile(a, otherMacro, 'Night')).name).toBe('Night');
  });

  test('"Default" is refused even before anything has read the macro\'s profiles', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    expectError(await create(a, { macro_id: macroId, name: 'Default' }), 409, 'name_taken');
    const listed = await items(a, macroId);
    expect(listed.map((p) => [p.name, p.is_default])).toEqual([['Default', true]]);
  });

  test('ten concurrent creates of one name: exactly one 201 and nine 409', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => create(a, { macro_id: macroId, name: 'Race', args: { n: i } })));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().details.code === 'name_taken')).toBe(true);
    expect((await items(a, macroId)).map((p) => p.name)).toEqual(['Default', 'Race']);
  });

  test("another account's macro, a block macro and a missing macro answer 404 not_found", async () => {
    const owner = await account();
    const intruder = await account();
    const macroId = await createMacro(owner);
    const blockId = await createMacro(owner, 'block');
    expectError(await create(intruder, { macro_id: macroId, name: 'Mine now' }), 404, 'not_found');
    expectError(await create(owner, { macro_id: blockId, name: 'Blocky' }), 404, 'not_found');
    expectError(await create(owner, { macro_id: macroId + 1000, name: 'Nowhere' }), 404, 'not_found');
    expect(await rowsOf(macroId)).toEqual([]);
    expect(await rowsOf(blockId)).toEqual([]);
  });

  test.each([
    [{ name: 'x' }, 'body.macro_id'],
    [{ macro_id: '1', name: 'x' }, 'body.macro_id'],
    [{ macro_id: 1 }, 'body.name'],
    [{ macro_id: 1, name: 42 }, 'body.name'],
    [{ macro_id: 1, name: '' }, 'body.name'],
    [{ macro_id: 1, name: '   ' }, 'body.name'],
    [{ macro_id: 1, name: 'x'.repeat(101) }, 'body.name'],
    [{ macro_id: 1, name: 'x', args: ['a'] }, 'body.args'],
    [{ macro_id: 1, name: 'x', args: 'speed=3' }, 'body.args'],
    [{ macro_id: 1, name: 'x', args: 3 }, 'body.args'],
    [{ macro_id: 1, name: 'x', args: null }, 'body.args'],
    [{ macro_id: 1, name: 'x', args: { __cli_args__: ['--a'] } }, 'body.args.__cli_args__'],
    [{ macro_id: 1, name: 'x', is_default: true }, 'body.is_default'],
    [{ macro_id: 1e20, name: 'x' }, 'body.macro_id'],
  ])('%j answers 422 naming %s and creates nothing', async (payload, path) => {
    const a = await account();
    const macroId = await createMacro(a);
    const body = { ...payload, ...('macro_id' in payload && payload.macro_id === 1 ? { macro_id: macroId } : {}) };
    expectInvalid(await create(a, body), path);
    expect(await rowsOf(macroId)).toEqual([]);
  });

  test('a 100-character name is accepted', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    expect((await createProfile(a, macroId, 'n'.repeat(100))).name).toHaveLength(100);
  });
});

describe('the 64 KB limit on args', () => {
  // {"a":"…"} is 8 bytes of JSON around the value.
  const argsOfBytes = (bytes: number) => ({ a: 'x'.repeat(bytes - 8) });

  test('args of exactly 65536 bytes as JSON are accepted; one byte more is 422 naming body.args', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    expect(Buffer.byteLength(JSON.stringify(argsOfBytes(65_536)))).toBe(65_536);
    const atLimit = await createProfile(a, macroId, 'At limit', argsOfBytes(65_536));
    expect(atLimit.args).toEqual(argsOfBytes(65_536));
    expectInvalid(await create(a, { macro_id: macroId, name: 'Over', args: argsOfBytes(65_537) }), 'body.args');
    expectInvalid(await create(a, { macro_id: macroId, name: 'Way over', args: argsOfBytes(65 * 1024 + 1024) }), 'body.args');
    expect((await rowsOf(macroId)).map((r) => r.name)).toEqual(['Default', 'At limit']);
  });

  test('the limit counts bytes, not characters', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    // 40 000 characters, 80 000 bytes in UTF-8.
    expectInvalid(await create(a, { macro_id: macroId, name: 'Accents', args: { a: 'é'.repeat(40_000) } }), 'body.args');
  });

  test('an update over the limit answers 422 and changes nothing', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    const profile = await createProfile(a, macroId, 'Small', { speed: 1 });
    t.clock.advance(1000);
    expectInvalid(await update(a, profile.id, { name: 'Renamed too', args: argsOfBytes(66_560) }), 'body.args');
    const after = (await items(a, macroId)).find((p) => p.id === profile.id);
    expect(after).toEqual(profile);
  });
});

describe('PUT /api/macro-setting-profiles/{id}', () => {
  test('args replace the whole set; a rename keeps the args; __cli_args__ is kept; updated_at moves', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    const profile = await createProfile(a, macroId, 'Work', { a: 1, b: 2, __cli_args__: '--a 1 --b 2' });

    t.clock.advance(60_000);
    const replaced = await update(a, profile.id, { args: { c: 3, __cli_args__: '--c 3' } });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toEqual({ ...profile, args: { c: 3, __cli_args__: '--c 3' }, updated_at: now() });

    t.clock.advance(60_000);
    const renamed = await update(a, profile.id, { name: ' Weekend ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ ...profile, name: 'Weekend', args: { c: 3, __cli_args__: '--c 3' }, updated_at: now() });

    const both = await update(a, profile.id, { name: 'Both', args: {} });
    expect(both.json()).toMatchObject({ name: 'Both', args: {}, created_at: profile.created_at });
    expect((await items(a, macroId)).find((p) => p.id === profile.id)).toEqual(both.json());
  });

  test('Default cannot be renamed (400 default_profile_protected), but its args can change', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    const def = await defaultOf(a, macroId);
    for (const name of ['Main', 'default']) {
      const res = await update(a, def.id, { name, args: { ignored: true } });
      expectError(res, 400, 'default_profile_protected');
    }
    expect(await defaultOf(a, macroId)).toEqual(def);

    const res = await update(a, def.id, { args: { speed: 5, __cli_args__: '--speed 5' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: def.id, name: 'Default', is_default: true, args: { speed: 5, __cli_args__: '--speed 5' } });
    // Sending the record back with its own name is not a rename.
    const same = await update(a, def.id, { name: 'Default', args: { speed: 6 } });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ name: 'Default', args: { speed: 6 } });
  });

  test('renaming to a name in use or to "Default" answers 409 name_taken; to its own name is fine', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    await createProfile(a, macroId, 'Taken');
    const profile = await createProfile(a, macroId, 'Mine', { k: 1 });
    expectError(await update(a, profile.id, { name: 'Taken' }), 409, 'name_taken');
    expectError(await update(a, profile.id, { name: 'Default', args: { k: 2 } }), 409, 'name_taken');
    expect((await items(a, macroId)).find((p) => p.id === profile.id)).toMatchObject({ name: 'Mine', args: { k: 1 } });
    expect((await update(a, profile.id, { name: 'Mine' })).statusCode).toBe(200);
  });

  test("another account's profile and a missing one answer 404 and stay unchanged", async () => {
    const owner = await account();
    const intruder = await account();
    const macroId = await createMacro(owner);
    const profile = await createProfile(owner, macroId, 'Private', { secret: 1 });
    const def = await defaultOf(owner, macroId);
    expectError(await update(intruder, profile.id, { name: 'Pwned' }), 404, 'not_found');
    expectError(await update(intruder, def.id, { args: { pwned: true } }), 404, 'not_found');
    expectError(await update(owner, profile.id + 1000, { name: 'Ghost' }), 404, 'not_found');
    expect((await items(owner, macroId)).map((p) => [p.name, p.args])).toEqual([['Default', {}], ['Private', { secret: 1 }]]);
  });

  test.each([
    [{}, 'body'],
    [{ name: 7 }, 'body.name'],
    [{ name: ' ' }, 'body.name'],
    [{ args: [1, 2] }, 'body.args'],
    [{ args: 'a=1' }, 'body.args'],
    [{ args: { __cli_args__: 5 } }, 'body.args.__cli_args__'],
    [{ name: 'x', macro_id: 2 }, 'body.macro_id'],
  ])('%j answers 422 naming %s', async (payload, path) => {
    const a = await account();
    const macroId = await createMacro(a);
    const profile = await createProfile(a, macroId, 'Keep', { k: 1 });
    expectInvalid(await update(a, profile.id, payload), path);
    expect((await items(a, macroId)).find((p) => p.id === profile.id)).toEqual(profile);
  });
});

describe('devices and DELETE /api/macro-setting-profiles/{id}', () => {
  test('devices_using counts the devices following each profile, when read', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    const fast = await createProfile(a, macroId, 'Fast');
    const [d1, d2, d3] = [await createDevice(a, 5555), await createDevice(a, 5556), await createDevice(a, 5557)];
    await follow(a, d1, { macro_id: macroId, profile_id: fast.id });
    await follow(a, d2, { macro_id: macroId, profile_id: fast.id });
    await follow(a, d3, { macro_id: macroId }); // the macro's Default
    const counts = async () => Object.fromEntries((await items(a, macroId)).map((p) => [p.name, p.devices_using]));
    expect(await counts()).toEqual({ Default: 1, Fast: 2 });
    const def = await defaultOf(a, macroId);
    await follow(a, d2, { macro_id: macroId, profile_id: def.id });
    expect(await counts()).toEqual({ Default: 2, Fast: 1 });
    // A device that moves to another macro, or is removed, stops counting.
    await follow(a, d1, { macro_id: await createMacro(a) });
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/emulator/devices/${d3}`, headers: a.user.auth });
    expect(removed.statusCode).toBe(204);
    expect(await counts()).toEqual({ Default: 1, Fast: 0 });
    // Single-profile answers count too.
    await follow(a, d2, { macro_id: macroId, profile_id: fast.id });
    expect((await update(a, fast.id, { args: { n: 1 } })).json().devices_using).toBe(1);
  });

  test("deleting a profile moves its devices to the macro's Default in one step", async () => {
    const a = await account();
    const macroId = await createMacro(a);
    const doomed = await createProfile(a, macroId, 'Doomed');
    const kept = await createProfile(a, macroId, 'Kept');
    const def = await defaultOf(a, macroId);
    const [d1, d2, d3, d4] = [await createDevice(a, 5001), await createDevice(a, 5002), await createDevice(a, 5003), await createDevice(a, 5004)];
    await follow(a, d1, { macro_id: macroId, profile_id: doomed.id });
    await follow(a, d2, { macro_id: macroId, profile_id: doomed.id });
    await follow(a, d3, { macro_id: macroId, profile_id: kept.id });
    await follow(a, d4, { macro_id: macroId });

    const res = await remove(a, doomed.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deleted: true, repointed_to: def.id });

    // As a devices:control key sees them.
    const devicesKey = withKey((await createKey(t.app, a.user, { scopes: ['devices:control'] })).key);
    const devices = await t.app.inject({ url: `/api/emulator/devices?macro_id=${macroId}&sort=port`, headers: devicesKey });
    expect(devices.statusCode).toBe(200);
    expect(devices.json().rows.map((d: { id: number; profile_id: number }) => [d.id, d.profile_id])).toEqual([
      [d1, def.id],
      [d2, def.id],
      [d3, kept.id],
      [d4, def.id],
    ]);
    expect((await items(a, macroId)).map((p) => [p.name, p.devices_using])).toEqual([['Default', 3], ['Kept', 1]]);
    expectError(await remove(a, doomed.id), 404, 'not_found');
    expectError(await update(a, doomed.id, { name: 'Back' }), 404, 'not_found');
  });

  test('Default cannot be deleted (400 default_profile_protected)', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    const def = await defaultOf(a, macroId);
    const device = await createDevice(a, 5100);
    await follow(a, device, { macro_id: macroId });
    expectError(await remove(a, def.id), 400, 'default_profile_protected');
    expect(await items(a, macroId)).toEqual([{ ...def, devices_using: 1 }]);
  });

  test("another account's profile and a missing one answer 404; theirs and its devices stay", async () => {
    const owner = await account();
    const intruder = await account();
    const macroId = await createMacro(owner);
    const profile = await createProfile(owner, macroId, 'Theirs');
    const device = await createDevice(owner, 5200);
    await follow(owner, device, { macro_id: macroId, profile_id: profile.id });
    expectError(await remove(intruder, profile.id), 404, 'not_found');
    expectError(await remove(owner, profile.id + 1000), 404, 'not_found');
    for (const id of ['0', '100000000000000000000']) {
      expectInvalid(await remove(owner, id), 'path.id');
      expectInvalid(await update(owner, id, { name: 'x' }), 'path.id');
    }
    expect((await items(owner, macroId)).map((p) => [p.name, p.devices_using])).toEqual([['Default', 0], ['Theirs', 1]]);
  });

  test('deleting the macro removes its profiles', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    const profile = await createProfile(a, macroId, 'Gone soon');
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/macros/${macroId}`, headers: a.user.auth });
    expect(deleted.statusCode).toBe(204);
    expectError(await list(a, macroId), 404, 'not_found');
    expectError(await update(a, profile.id, { name: 'Still here?' }), 404, 'not_found');
    expectError(await remove(a, profile.id), 404, 'not_found');
    expect(await rowsOf(macroId)).toEqual([]);
  });
});

describe('who may call', () => {
  const calls = (a: Account, headers: Record<string, string>, macroId: number, profileId: number) => [
    t.app.inject({ url: `${URL_BASE}?macro_id=${macroId}`, headers }),
    t.app.inject({ method: 'POST', url: URL_BASE, headers, payload: { macro_id: macroId, name: 'Scoped' } }),
    t.app.inject({ method: 'PUT', url: `${URL_BASE}/${profileId}`, headers, payload: { name: 'Scoped' } }),
    t.app.inject({ method: 'DELETE', url: `${URL_BASE}/${profileId}`, headers }),
  ];

  test('a key with scopes gets 403 insufficient_scope on every profile route, and changes nothing', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    const profile = await createProfile(a, macroId, 'Guarded');
    for (const scopes of [['runs:read'], ['devices:control', 'macros:run', 'macros:author', 'maps:read', 'runs:read']]) {
      const scoped = withKey((await createKey(t.app, a.user, { scopes })).key);
      for (const res of await Promise.all(calls(a, scoped, macroId, profile.id))) {
        expectError(res, 403, 'insufficient_scope');
        expect(res.json().details.required_scopes).toEqual([]);
      }
    }
    expect((await items(a, macroId)).map((p) => p.name)).toEqual(['Default', 'Guarded']);
  });

  test('the application session is refused with 401', async () => {
    const a = await account();
    const macroId = await createMacro(a);
    const profile = await createProfile(a, macroId, 'Guarded');
    for (const res of await Promise.all(calls(a, a.user.auth, macroId, profile.id))) expect(res.statusCode).toBe(401);
    expect((await items(a, macroId)).map((p) => p.name)).toEqual(['Default', 'Guarded']);
  });
});
