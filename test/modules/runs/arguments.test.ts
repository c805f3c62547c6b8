// A run's arguments (decisions.md §10): which profile, the run's `args` laid over it,
// `__cli_args__` dropped or kept, and the command line built from the result.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { argumentWords, pythonCommand, renderArgValue } from '../../../src/modules/runs/arguments/command-line.js';
import { mergeRunArgs } from '../../../src/modules/runs/arguments/merge.js';
import { loadProfileArgs, resolveRunArgs } from '../../../src/modules/runs/arguments/profile-args.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createCloudDevice, createMacro, updateDevice } from '../../helpers/resources.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';

describe('merging the run’s args over the profile', () => {
  test('key by key, the profile’s order first, then keys only the run adds', () => {
    const merged = mergeRunArgs({ speed: 1, name: 'a', retries: 3 }, { extra: true, name: 'b' });
    expect(merged).toEqual({ speed: 1, name: 'b', retries: 3, extra: true });
    expect(Object.keys(merged)).toEqual(['speed', 'name', 'retries', 'extra']);
  });

  test('without run args the profile is used as it is, __cli_args__ included', () => {
    expect(mergeRunArgs({ a: 1, __cli_args__: '--fast' })).toEqual({ a: 1, __cli_args__: '--fast' });
  });

  test('with run args the stored __cli_args__ is dropped (it was rendered for other values)…', () => {
    expect(mergeRunArgs({ a: 1, __cli_args__: '--a 1' }, { a: 2 })).toEqual({ a: 2 });
    expect(mergeRunArgs({ a: 1, __cli_args__: '--a 1' }, {})).toEqual({ a: 1 });
  });

  test('…unless the run’s args carry their own', () => {
    expect(mergeRunArgs({ a: 1, __cli_args__: '--a 1' }, { a: 2, __cli_args__: '--a 2' })).toEqual({ a: 2, __cli_args__: '--a 2' });
  });

  test('the profile object is never changed', () => {
    const profile = { a: 1, __cli_args__: 'x' };
    mergeRunArgs(profile, { b: 2 });
    expect(profile).toEqual({ a: 1, __cli_args__: 'x' });
  });
});

describe('the command line', () => {
  test('`--name value` per argument in stored order; objects and arrays as JSON, booleans true/false', () => {
    const args = { user: 'Ada Lovelace', count: 3, ratio: 0.5, fast: true, slow: false, none: null, tags: ['a', 'b'], opts: { x: 1 }, empty: '' };
    expect(pythonCommand('src/app.py', args)).toEqual([
      'python3', 'src/app.py',
      '--user', 'Ada Lovelace', '--count', '3', '--ratio', '0.5', '--fast', 'true', '--slow', 'false', '--none', 'null',
      '--tags', '["a","b"]', '--opts', '{"x":1}', '--empty', '',
    ]);
  });

  test('__cli_args__ replaces the --name words and is split as a shell would', () => {
    expect(pythonCommand('main.py', { user: 'x', __cli_args__: `--user "Ada Lovelace" --quote 'it''s' -v` })).toEqual(['python3', 'main.py', '--user', 'Ada Lovelace', '--quote', 'its', '-v']);
    expect(pythonCommand('main.py', { __cli_args__: '' })).toEqual(['python3', 'main.py']);
    // null reads as "no command line stored".
    expect(pythonCommand('main.py', { a: 1, __cli_args__: null })).toEqual(['python3', 'main.py', '--a', '1']);
  });

  test('no arguments: just python3 and the entry', () => {
    expect(pythonCommand('src/app.py', {})).toEqual(['python3', 'src/app.py']);
  });

  test('a command line with shell operators, expansions or globs is refused naming __cli_args__', () => {
    for (const cli of ['--a 1 && rm -rf x', '--home $HOME', '*.txt', '`id`']) {
      expect(() => argumentWords({ __cli_args__: cli }, 'body.args')).toThrow(expect.objectContaining({ status: 422, code: 'validation_failed' }));
    }
    expect(() => argumentWords({ __cli_args__: 'a | b' }, 'body.args')).toThrow(
      expect.objectContaining({ extra: expect.objectContaining({ errors: [{ path: 'body.args.__cli_args__', message: expect.stringContaining('shell operator |') }] }) }),
    );
  });

  test('a __cli_args__ that is not a string, an empty name and a NUL are refused', () => {
    expect(() => argumentWords({ __cli_args__: 5 })).toThrow(/args.__cli_args__ must be a string/);
    expect(() => argumentWords({ '': 1 })).toThrow(/empty name/);
    expect(() => argumentWords({ a: 'x\0y' })).toThrow(/NUL/);
    expect(() => argumentWords({ __cli_args__: "'x\0'" })).toThrow(/NUL/);
  });

  test('values render as their JSON, strings as they are', () => {
    expect(renderArgValue('--dash')).toBe('--dash');
    expect(renderArgValue(1e21)).toBe('1e+21');
    expect(renderArgValue('ünï')).toBe('ünï');
  });
});

describe('which profile a run uses (on the database)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  test('the device’s profile when it belongs to the run’s macro, else that macro’s Default, else nothing', async () => {
    const user = await signUp(t.app);
    const { key } = await createKey(t.app, user);
    const a = await createMacro(t.app, user, { name: 'A' });
    const b = await createMacro(t.app, user, { name: 'B' });
    const c = await createMacro(t.app, user, { name: 'C' });
    const fast = await t.app.inject({ method: 'POST', url: '/api/macro-setting-profiles', headers: withKey(key), payload: { macro_id: a.id, name: 'Fast', args: { speed: 9, __cli_args__: '--speed 9' } } });
    expect(fast.statusCode, fast.body).toBe(201);
    // B's Default, created on first read, then given values.
    const listed = await t.app.inject({ url: `/api/macro-setting-profiles?macro_id=${b.id}`, headers: withKey(key) });
    const bDefault = listed.json().items[0];
    await t.app.inject({ method: 'PUT', url: `/api/macro-setting-profiles/${bDefault.id}`, headers: withKey(key), payload: { args: { speed: 1, mode: 'b' } } });

    const device = await createCloudDevice(t.app, user);
    expect((await updateDevice(t.app, user, device.id, { macro_id: a.id, profile_id: fast.json().id })).statusCode).toBe(200);
    // The device follows Fast, A's profile.
    const source = (macroId: number) => ({ userId: user.id, macroId, followedProfileId: fast.json().id as number });

    expect(await loadProfileArgs(t.db.kysely, source(a.id))).toEqual({ profileId: fast.json().id, args: { speed: 9, __cli_args__: '--speed 9' } });
    expect(await loadProfileArgs(t.db.kysely, source(b.id))).toEqual({ profileId: bDefault.id, args: { speed: 1, mode: 'b' } });
    expect(await loadProfileArgs(t.db.kysely, source(c.id))).toEqual({ profileId: null, args: {} });
    expect(await resolveRunArgs(t.db.kysely, source(a.id), { speed: 10 })).toEqual({ speed: 10 });
    expect(await resolveRunArgs(t.db.kysely, source(a.id))).toEqual({ speed: 9, __cli_args__: '--speed 9' });

    // Someone else's device never lends its profile.
    const other = await signUp(t.app);
    expect(await loadProfileArgs(t.db.kysely, { userId: other.id, macroId: a.id, followedProfileId: fast.json().id as number })).toEqual({ profileId: null, args: {} });
    // A device that follows no profile (or no device) gets the Default.
    expect(await loadProfileArgs(t.db.kysely, { userId: user.id, macroId: b.id, followedProfileId: null })).toEqual({ profileId: bDefault.id, args: { speed: 1, mode: 'b' } });
  });
});
