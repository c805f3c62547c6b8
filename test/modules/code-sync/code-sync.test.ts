// Code sync routes: uploading a snapshot, reading the current one, deduplication by hash,
// the entry rule and warnings as the API shows them, limits, scope and ownership.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { newSyncer, ROOMY_LIMITS, type Syncer } from '../../helpers/code-sync.js';
import { createMacro } from '../../helpers/resources.js';
import { seedImage } from '../../helpers/images.js';
import { createKey, withKey } from '../../helpers/users.js';
import { buildZip, hashOfEntries, type RawEntry, snapshotBody } from '../../helpers/zip.js';

const PROJECT: RawEntry[] = [
  { name: 'src/' },
  { name: 'src/app.py', data: 'from lib import util\nLOGO = "img_00000000000000aa"\nutil.tap("img_00000000000000bb")\n' },
  { name: 'lib/util.py', data: "def tap(image):\n    return image  # 'img_00000000000000cc' is only a comment\n" },
  { name: 'README.md', data: '# farm bot\n' },
];

let t: TestApp;
let s: Syncer;
beforeAll(async () => {
  t = await createTestApp({ env: ROOMY_LIMITS });
  s = await newSyncer(t.app);
});
afterAll(() => t.close());

const snapshotRows = (macroId: number) => t.db.kysely.selectFrom('code_snapshots').selectAll().where('macro_id', '=', macroId).execute();

describe('POST /api/macros/{id}/code-snapshot', () => {
  test('stores the project and answers the upload response; code-state then shows it', async () => {
    const own = await newSyncer(t.app);
    await seedImage(t.db, own.user.id, 'img_00000000000000bb');
    const body = snapshotBody(PROJECT);
    const res = await own.upload(body);
    expect(res.statusCode, res.body).toBe(201);
    const size = PROJECT.reduce((sum, e) => sum + Buffer.byteLength(e.data ?? ''), 0);
    expect(res.json()).toEqual({
      worktree_hash: body.worktree_hash,
      entry_path: 'src/app.py',
      entry_kind: 'python',
      image_ids: ['img_00000000000000aa', 'img_00000000000000bb'],
      warnings: [
        { code: 'entry_defaulted', message: expect.stringContaining('src/app.py'), path: 'src/app.py' },
        { code: 'unknown_image', message: expect.stringContaining('img_00000000000000aa'), path: 'src/app.py', line: 2 },
      ],
      size_bytes: size,
      file_count: 3,
      created: true,
    });
    const state = await own.state();
    expect(state.statusCode).toBe(200);
    expect(state.json()).toEqual({ worktree_hash: body.worktree_hash, entry_path: 'src/app.py', size_bytes: size, file_count: 3, created_at: new Date(t.clock.now()).toISOString() });
    // The zip is kept in the database, byte for byte, for every process to read.
    const [row] = await snapshotRows(own.macroId);
    const blob = await t.db.kysely.selectFrom('code_blobs').select('zip').where('sha256', '=', row.zip_sha256).executeTakeFirstOrThrow();
    expect(Buffer.compare(Buffer.from(blob.zip), Buffer.from(body.zip_file_base64, 'base64'))).toBe(0);
  });

  test('the same hash again answers created: false and makes that snapshot current again', async () => {
    const own = await newSyncer(t.app);
    const first = snapshotBody([{ name: 'main.py', data: 'print(1)\n' }]);
    const second = snapshotBody([{ name: 'main.py', data: 'print(2)\n' }]);
    expect((await own.upload(first)).statusCode).toBe(201);
    const createdAt = (await own.state()).json().created_at;
    t.clock.advance(60_000);
    expect((await own.upload(second)).statusCode).toBe(201);
    expect((await own.state()).json().worktree_hash).toBe(second.worktree_hash);
    t.clock.advance(60_000);
    // Zipped differently (stored, not deflated): the same files, so the same snapshot.
    const again = { ...first, zip_file_base64: buildZip([{ name: 'main.py', data: 'print(1)\n', method: 0 }]).toString('base64') };
    const res = await own.upload(again);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ worktree_hash: first.worktree_hash, created: false, entry_path: 'main.py' });
    expect((await own.state()).json()).toMatchObject({ worktree_hash: first.worktree_hash, created_at: createdAt });
    expect(await snapshotRows(own.macroId)).toHaveLength(2);
  });

  test('an existing snapshot takes the entry path of the latest upload', async () => {
    const own = await newSyncer(t.app);
    const files = [{ name: 'main.py', data: 'x = 1\n' }, { name: 'tools/run.py', data: 'y = 2\n' }];
    expect((await own.upload(snapshotBody(files))).json().entry_path).toBe('main.py');
    const res = await own.upload(snapshotBody(files, { entry_path: 'tools/run.py' }));
    expect(res.json()).toMatchObject({ created: false, entry_path: 'tools/run.py', warnings: [] });
    expect((await own.state()).json().entry_path).toBe('tools/run.py');
  });

  test('a wrong hash answers 422 with both hashes and stores nothing', async () => {
    const own = await newSyncer(t.app);
    const body = { ...snapshotBody(PROJECT), worktree_hash: 'f'.repeat(64) };
    const res = await own.upload(body);
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toMatchObject({
      code: 'validation_failed',
      reason: 'hash_mismatch',
      sent_hash: 'f'.repeat(64),
      computed_hash: hashOfEntries(PROJECT),
      errors: [{ path: 'body.worktree_hash', message: expect.stringContaining(hashOfEntries(PROJECT)) }],
    });
    expect(await snapshotRows(own.macroId)).toEqual([]);
    expect((await own.state()).json().details.code).toBe('code_not_synced');
  });

  test.each([
    [{ worktree_hash: 'a'.repeat(64) }, 'body.zip_file_base64'],
    [{ zip_file_base64: 'UEsFBg==' }, 'body.worktree_hash'],
    [{ zip_file_base64: 'UEsFBg==', worktree_hash: 'A'.repeat(64) }, 'body.worktree_hash'],
    [{ zip_file_base64: 'UEsFBg==', worktree_hash: 'a'.repeat(63) }, 'body.worktree_hash'],
    [{ zip_file_base64: '', worktree_hash: 'a'.repeat(64) }, 'body.zip_file_base64'],
    [{ zip_file_base64: 'UEsFBg==', worktree_hash: 'a'.repeat(64), entry_path: 5 }, 'body.entry_path'],
    [{ zip_file_base64: 'UEsFBg==', worktree_hash: 'a'.repeat(64), extra: 1 }, 'body.extra'],
  ])('%j answers 422 naming %s', async (payload, path) => {
    const res = await s.upload(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().details.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  test('a body over 16 MiB answers 413; a zip over 10 MiB answers 422', async () => {
    const huge = { zip_file_base64: 'A'.repeat(16 * 1024 * 1024), worktree_hash: 'a'.repeat(64) };
    const tooBig = await s.upload(huge);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().details).toMatchObject({ code: 'payload_too_large', limit: 16 * 1024 * 1024 });
    // A zip of exactly 10 MiB is accepted; one byte more is refused (stored, so sizes are exact).
    const limit = 10 * 1024 * 1024;
    const overhead = buildZip([{ name: 'main.py', method: 0 }]).length;
    const over = [{ name: 'main.py', data: Buffer.alloc(limit + 1 - overhead, 7), method: 0 }];
    expect(buildZip(over).length).toBe(limit + 1);
    const res = await s.upload(snapshotBody(over));
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toMatchObject({ reason: 'zip_too_large', limit });
    const under = [{ name: 'main.py', data: Buffer.alloc(limit - overhead, 7), method: 0 }];
    expect((await s.upload(snapshotBody(under))).statusCode).toBe(201);
  });
});

describe('GET /api/macros/{id}/code-state', () => {
  test('a macro that never synced answers 404 code_not_synced', async () => {
    const res = await s.state((await createMacro(t.app, s.user)).id);
    expect(res.statusCode).toBe(404);
    expect(res.json().details.code).toBe('code_not_synced');
  });
});

describe('GET /api/macros/{id}/code-summary (the console’s, session only)', () => {
  const summary = (user: { auth: { authorization: string } }, id: number) => t.app.inject({ url: `/api/macros/${id}/code-summary`, headers: user.auth });

  test('a macro that never synced is synced: false with no 404; after an upload, the state code-state answers', async () => {
    const own = await newSyncer(t.app);
    const before = await summary(own.user, own.macroId);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ synced: false, state: null });
    await own.upload(snapshotBody(PROJECT));
    const after = await summary(own.user, own.macroId);
    expect(after.json()).toEqual({ synced: true, state: (await own.state()).json() });
  });

  test('another user’s macro, a block macro and a missing one answer 404; an API key answers 401', async () => {
    const owner = await newSyncer(t.app);
    const intruder = await newSyncer(t.app);
    const block = await createMacro(t.app, owner.user, { kind: 'block' });
    for (const res of [await summary(intruder.user, owner.macroId), await summary(owner.user, block.id), await summary(owner.user, 999_999)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().details.code).toBe('not_found');
    }
    const byKey = await t.app.inject({ url: `/api/macros/${owner.macroId}/code-summary`, headers: withKey(owner.key) });
    expect(byKey.statusCode).toBe(401);
  });
});

describe('ownership, kind and scope', () => {
  test("another user's macro answers 404 not_found to both routes and is unchanged", async () => {
    const owner = await newSyncer(t.app);
    const body = snapshotBody(PROJECT);
    await owner.upload(body);
    const intruder = await newSyncer(t.app);
    for (const res of [await intruder.upload(snapshotBody([{ name: 'main.py', data: 'evil()\n' }]), owner.macroId), await intruder.state(owner.macroId)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().details.code).toBe('not_found');
    }
    expect((await owner.state()).json().worktree_hash).toBe(body.worktree_hash);
  });

  test('a block macro answers 404 to both routes; a missing one too', async () => {
    const block = await createMacro(t.app, s.user, { kind: 'block' });
    for (const id of [block.id, 999_999]) {
      for (const res of [await s.upload(snapshotBody(PROJECT), id), await s.state(id)]) {
        expect(res.statusCode).toBe(404);
        expect(res.json().details.code).toBe('not_found');
      }
    }
    const rows = await t.db.kysely.selectFrom('code_snapshots').select('id').where('macro_id', '=', block.id).execute();
    expect(rows).toEqual([]);
  });

  test('a key without macros:run answers 403; a full-access key is accepted', async () => {
    const { key } = await createKey(t.app, s.user, { scopes: ['devices:control'] });
    const post = await t.app.inject({ method: 'POST', url: `/api/macros/${s.macroId}/code-snapshot`, headers: withKey(key), payload: snapshotBody(PROJECT) });
    const get = await t.app.inject({ url: `/api/macros/${s.macroId}/code-state`, headers: withKey(key) });
    for (const res of [post, get]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().details).toMatchObject({ code: 'insufficient_scope', required_scopes: ['macros:run'] });
    }
    const full = await createKey(t.app, s.user);
    const ok = await t.app.inject({ method: 'POST', url: `/api/macros/${s.macroId}/code-snapshot`, headers: withKey(full.key), payload: snapshotBody(PROJECT) });
    expect(ok.statusCode).toBeLessThan(300);
  });
});

describe('deleting the macro', () => {
  test('deletes its snapshots and its state', async () => {
    const own = await newSyncer(t.app);
    await own.upload(snapshotBody(PROJECT));
    await own.upload(snapshotBody([{ name: 'main.py', data: 'pass\n' }]));
    expect(await snapshotRows(own.macroId)).toHaveLength(2);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/macros/${own.macroId}`, headers: own.user.auth })).statusCode).toBe(204);
    expect(await snapshotRows(own.macroId)).toEqual([]);
    expect(await t.db.kysely.selectFrom('code_sync_state').select('macro_id').where('macro_id', '=', own.macroId).execute()).toEqual([]);
    expect((await own.state()).statusCode).toBe(404);
  });
});
