// Settings profiles: POST /api/macro-setting-profiles and the 64 KB limit on args.
import { describe, expect, test } from 'vitest';
import { useProfilesHarness, t, PROFILE_FIELDS, account, createMacro, create, update, items, createProfile, rowsOf, now, expectError, expectInvalid } from './harness.js';

useProfilesHarness();

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
