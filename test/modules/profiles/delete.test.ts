// Settings profiles: devices, DELETE /api/macro-setting-profiles/{id} (devices moved to Default), and who may call.
import { describe, expect, test } from 'vitest';
import { createKey, withKey } from '../../helpers/users.js';
import { useProfilesHarness, t, URL_BASE, account, createMacro, createDevice, follow, list, update, remove, items, createProfile, defaultOf, rowsOf, expectError, expectInvalid, type Account } from './harness.js';

useProfilesHarness();

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

  test("the owner's own session is admitted (decision 0006): it reads the profiles", async () => {
    const a = await account();
    const macroId = await createMacro(a);
    await createProfile(a, macroId, 'Guarded');
    const res = await t.app.inject({ url: `${URL_BASE}?macro_id=${macroId}`, headers: a.user.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((p: { name: string }) => p.name)).toEqual(['Default', 'Guarded']);
  });

  test("another account's session gets 404 for the macro's profiles and changes nothing", async () => {
    const a = await account();
    const other = await account();
    const macroId = await createMacro(a);
    const profile = await createProfile(a, macroId, 'Guarded');
    for (const res of await Promise.all(calls(a, other.user.auth, macroId, profile.id))) expect(res.statusCode).toBe(404);
    expect((await items(a, macroId)).map((p) => p.name)).toEqual(['Default', 'Guarded']);
  });
});
