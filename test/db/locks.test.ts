// Races between requests that touch the same rows, made deterministic by holding a
// transaction open while the competing request runs.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lockProfileRow } from '../../src/db/locks.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createDevice, createMacro, updateDevice } from '../helpers/resources.js';
import { type SignedUpUser, signUp } from '../helpers/users.js';

let t: TestApp;
let user: SignedUpUser;
beforeAll(async () => {
  t = await createTestApp({
    extend: (app) => {
      // Refers to a group that does not exist: the database refuses the foreign key.
      app.post('/api/test/dangling', { config: { auth: { kind: 'session' } }, schema: { hide: true } }, async (request) => {
        const userId = request.caller?.userId ?? 0;
        const now = Date.now();
        await t.db.kysely
          .insertInto('devices')
          .values({ user_id: userId, name: 'x', port: 1, is_hosted: 0, hosted_state: null, group_id: 987654, macro_id: null, profile_id: null, created_at: now, updated_at: now })
          .execute();
        return { ok: true };
      });
    },
  });
  user = await signUp(t.app);
});
afterAll(() => t.close());

describe('a row removed by another request meanwhile', () => {
  test('answers 409 conflict, not 500', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/test/dangling', headers: user.auth });
    expect(res.statusCode).toBe(409);
    expect(res.json().details.code).toBe('conflict');
  });
});

describe('deleting a profile while a device is pointed at it', () => {
  test('the device update waits for the delete and is refused; no device is left without a profile', async () => {
    const macro = await createMacro(t.app, user);
    const device = await createDevice(t.app, user);
    const defaultId = (await updateDevice(t.app, user, device.id, { macro_id: macro.id })).json().profile_id;
    const now = t.clock.now();
    const profile = await t.db.kysely
      .insertInto('macro_setting_profiles')
      .values({ user_id: user.id, macro_id: macro.id, name: 'Doomed', args: '{}', is_default: 0, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();

    let pointing: Promise<{ statusCode: number }> | undefined;
    // The same steps as the profile delete, with the competing request started while the
    // delete holds the profile's lock.
    await t.db.kysely.transaction().execute(async (trx) => {
      expect(await lockProfileRow(trx, t.db.dialect, user.id, profile.id)).toBeDefined();
      pointing = updateDevice(t.app, user, device.id, { profile_id: profile.id });
      await new Promise((r) => setTimeout(r, 150));
      await trx.updateTable('devices').set({ profile_id: defaultId }).where('profile_id', '=', profile.id).execute();
      await trx.deleteFrom('macro_setting_profiles').where('id', '=', profile.id).execute();
    });
    const res = await pointing;
    expect(res?.statusCode).toBe(422);
    const after = await t.db.kysely.selectFrom('devices').select('profile_id').where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(after.profile_id).toBe(defaultId);
  });
});
