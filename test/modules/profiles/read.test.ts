// Settings profiles: GET /api/macro-setting-profiles (Default on first read, listing, ownership).
import { describe, expect, test } from 'vitest';
import { useProfilesHarness, t, URL_BASE, account, createMacro, list, items, createProfile, rowsOf, now, expectError, expectInvalid, type ProfileBody } from './harness.js';

useProfilesHarness();

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
