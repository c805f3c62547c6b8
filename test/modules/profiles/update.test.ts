// Settings profiles: PUT /api/macro-setting-profiles/{id} (rename, replace args, refusals).
import { describe, expect, test } from 'vitest';
import { useProfilesHarness, t, account, createMacro, update, items, createProfile, defaultOf, now, expectError, expectInvalid } from './harness.js';

useProfilesHarness();

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
