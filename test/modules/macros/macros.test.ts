// Macros (application routes): create, list, read, update, delete.
import { beforeAll, describe, expect, test } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { useAppAndUser } from '../../helpers/app-user.js';
import { createDevice, createMacro, updateDevice } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';

const world = useAppAndUser();
let t: TestApp;
let user: SignedUpUser;
beforeAll(() => ({ t, user } = world));

describe('POST /api/macros', () => {
  test('creates a code macro and a block macro', async () => {
    const code = await createMacro(t.app, user, { name: ' Farm bot ', kind: 'python', description: 'daily' });
    expect(code).toEqual({
      id: expect.any(Number),
      name: 'Farm bot',
      kind: 'python',
      description: 'daily',
      created_at: new Date(t.clock.now()).toISOString(),
      updated_at: new Date(t.clock.now()).toISOString(),
    });
    const res = await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Clicker', kind: 'block', blocks: { version: 1, steps: [{ type: 'tap', x: 1, y: 2 }] } } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ kind: 'block', blocks: { version: 1, steps: [{ type: 'tap', x: 1, y: 2 }] } });
    expect(res.json().description).toBeUndefined(); // empty optional fields are omitted
  });

  test.each([
    [{ kind: 'python' }, 'body.name'],
    [{ name: 'x', kind: 'java' }, 'body.kind'],
    [{ name: '   ', kind: 'python' }, 'body.name'],
    [{ name: 'x'.repeat(101), kind: 'python' }, 'body.name'],
    [{ name: 'x', kind: 'python', blocks: [] }, 'body.blocks'],
    [{ name: 'x', kind: 'python', owner: 1 }, 'body.owner'],
  ])('%j answers 422 naming %s', async (payload, path) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  test('a key cannot create macros', async () => {
    const { key } = await createKey(t.app, user);
    const res = await t.app.inject({ method: 'POST', url: '/api/macros', headers: withKey(key), payload: { name: 'x', kind: 'python' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().details.code).toBe('missing_credentials');
  });
});

describe('GET /api/macros', () => {
  test('pages by name, case-insensitively, with a literal substring filter', async () => {
    const owner = await signUp(t.app);
    for (const name of ['beta', 'Alpha', 'gamma 100%', 'gamma_x', 'gammaXx']) await createMacro(t.app, owner, { name });
    const page1 = (await t.app.inject({ url: '/api/macros?page_size=2', headers: owner.auth })).json();
    expect(page1).toMatchObject({ page: 1, page_size: 2, total_rows: 5, total_pages: 3 });
    expect(page1.rows.map((m: { name: string }) => m.name)).toEqual(['Alpha', 'beta']);
    const percent = (await t.app.inject({ url: `/api/macros?name=${encodeURIComponent('100%')}`, headers: owner.auth })).json();
    expect(percent.rows.map((m: { name: string }) => m.name)).toEqual(['gamma 100%']);
    const underscore = (await t.app.inject({ url: '/api/macros?name=A_X', headers: owner.auth })).json();
    expect(underscore.rows.map((m: { name: string }) => m.name)).toEqual(['gamma_x']);
    const past = (await t.app.inject({ url: '/api/macros?page=9&page_size=2', headers: owner.auth })).json();
    expect(past).toMatchObject({ page: 9, total_rows: 5, total_pages: 3, rows: [] });
  });

  test.each(['page=0', 'page_size=0', 'page_size=201', 'page=abc'])('%s answers 422', async (query) => {
    const res = await t.app.inject({ url: `/api/macros?${query}`, headers: user.auth });
    expect(res.statusCode).toBe(422);
  });

  test("lists only the caller's macros", async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    await createMacro(t.app, a, { name: 'mine' });
    const res = (await t.app.inject({ url: '/api/macros', headers: b.auth })).json();
    expect(res.total_rows).toBe(0);
  });
});

describe('GET, PUT and DELETE /api/macros/{id}', () => {
  test('reads and changes a macro', async () => {
    const macro = await createMacro(t.app, user, { name: 'before' });
    t.clock.advance(1000);
    const res = await t.app.inject({ method: 'PUT', url: `/api/macros/${macro.id}`, headers: user.auth, payload: { name: 'after', description: 'new' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'after', description: 'new', created_at: macro.created_at, updated_at: new Date(t.clock.now()).toISOString() });
    expect((await t.app.inject({ url: `/api/macros/${macro.id}`, headers: user.auth })).json().name).toBe('after');
  });

  test('a block program is checked on create and update (422 naming each step’s path); [] reads as the empty program', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/macros',
      headers: user.auth,
      payload: { name: 'Bad', kind: 'block', blocks: { version: 1, steps: [{ type: 'log', message: 'a' }, { type: 'wait', ms: 1 }, { type: 'jump' }] } },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details.errors).toEqual([{ path: 'body.blocks.steps.2.type', message: expect.stringContaining('must be one of') }]);
    const old = await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Old', kind: 'block', blocks: [{ op: 'tap', x: 1 }] } });
    expect(old.statusCode).toBe(422);
    expect(old.json().details.errors[0].path).toBe('body.blocks');
    const empty = await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Empty', kind: 'block', blocks: [] } });
    expect(empty.statusCode).toBe(201);
    expect(empty.json().blocks).toEqual({ version: 1, steps: [] });
    const id = empty.json().id;
    const tapNoTarget = await t.app.inject({ method: 'PUT', url: `/api/macros/${id}`, headers: user.auth, payload: { blocks: { version: 1, steps: [{ type: 'repeat', times: 2, steps: [{ type: 'tap' }] }] } } });
    expect(tapNoTarget.statusCode).toBe(422);
    expect(tapNoTarget.json().details.errors[0].path).toBe('body.blocks.steps.0.steps.0');
    expect((await t.app.inject({ url: `/api/macros/${id}`, headers: user.auth })).json().blocks).toEqual({ version: 1, steps: [] });
    const good = await t.app.inject({ method: 'PUT', url: `/api/macros/${id}`, headers: user.auth, payload: { blocks: { version: 1, steps: [{ type: 'key', key: 'BACK' }] } } });
    expect(good.statusCode).toBe(200);
    expect(good.json().blocks).toEqual({ version: 1, steps: [{ type: 'key', key: 'BACK' }] });
  });

  test('blocks can only be set on block macros; an empty update is refused', async () => {
    const macro = await createMacro(t.app, user);
    expect((await t.app.inject({ method: 'PUT', url: `/api/macros/${macro.id}`, headers: user.auth, payload: { blocks: [] } })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'PUT', url: `/api/macros/${macro.id}`, headers: user.auth, payload: {} })).statusCode).toBe(422);
  });

  test("another account's macro answers 404 to read, change and delete, and is unchanged", async () => {
    const owner = await signUp(t.app);
    const intruder = await signUp(t.app);
    const macro = await createMacro(t.app, owner, { name: 'private' });
    expect((await t.app.inject({ url: `/api/macros/${macro.id}`, headers: intruder.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: `/api/macros/${macro.id}`, headers: intruder.auth, payload: { name: 'pwned' } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/macros/${macro.id}`, headers: intruder.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/macros/${macro.id}`, headers: owner.auth })).json().name).toBe('private');
  });

  test('delete answers 204; devices that followed it are left with no macro and no profile', async () => {
    const macro = await createMacro(t.app, user);
    const device = await createDevice(t.app, user);
    const followed = await updateDevice(t.app, user, device.id, { macro_id: macro.id });
    expect(followed.json().profile_id).toEqual(expect.any(Number));
    const res = await t.app.inject({ method: 'DELETE', url: `/api/macros/${macro.id}`, headers: user.auth });
    expect(res.statusCode).toBe(204);
    expect((await t.app.inject({ url: `/api/macros/${macro.id}`, headers: user.auth })).statusCode).toBe(404);
    const profiles = await t.db.kysely.selectFrom('macro_setting_profiles').select('id').where('macro_id', '=', macro.id).execute();
    expect(profiles).toEqual([]);
    const after = await t.db.kysely.selectFrom('devices').select(['macro_id', 'profile_id']).where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ macro_id: null, profile_id: null });
  });
});
