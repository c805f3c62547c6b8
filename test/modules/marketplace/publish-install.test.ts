// Publishing and installing: version 1 and later versions, frozen content after the author
// edits, installs of code and programs with their Default profile and installed_from, two
// installs make two macros, copies stay on their version until moved, deletion keeps copies,
// and zips are shared, never copied.
import sharp from 'sharp';
import { beforeAll, describe, expect, test } from 'vitest';
import { useAppAndUser } from '../../helpers/app-user.js';
import { blockMacro, call, codeMacro, install, MARKETPLACE_ENV, PROGRAM, publish, syncCode } from '../../helpers/marketplace.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';

const world = useAppAndUser({ env: MARKETPLACE_ENV });
let author: SignedUpUser;
let buyer: SignedUpUser;
beforeAll(async () => {
  author = world.user;
  buyer = await signUp(world.t.app);
});

const V1 = [{ name: 'main.py', data: 'print("v1")\n' }];
const V2 = [{ name: 'main.py', data: 'print("v2")\n' }];

async function currentZipOf(macroId: number) {
  return world.t.db.kysely
    .selectFrom('code_sync_state as s')
    .innerJoin('code_snapshots as c', 'c.id', 's.snapshot_id')
    .select(['c.worktree_hash', 'c.zip_sha256', 'c.user_id'])
    .where('s.macro_id', '=', macroId)
    .executeTakeFirstOrThrow();
}

describe('publishing', () => {
  test('a code macro publishes as version 1 with its worktree hash; the author is shown by name, never email', async () => {
    const macro = await codeMacro(world.t.app, author, V1);
    const listing = await publish(world.t.app, author, macro.id, { description: '# Farm\nIt farms.', tags: ['farm', 'idle-game'], notes: 'first' });
    expect(listing).toMatchObject({
      title: 'Farm bot',
      kind: 'python',
      tags: ['farm', 'idle-game'],
      latest_version: 1,
      installs: 0,
      rating: { average: null, count: 0 },
      visible: true,
      hidden_by_operator: false,
      description: '# Farm\nIt farms.',
      author: { id: author.id },
      versions: [{ version: 1, notes: 'first', worktree_hash: macro.worktreeHash, image_ids: [] }],
      trust: { window_days: 30, runs: 0, finished_runs: 0, completed_share: null },
    });
    expect(JSON.stringify(listing)).not.toContain(author.email);
  });

  test('a block macro publishes its program with the SHA-256 of its canonical JSON', async () => {
    const macro = await blockMacro(world.t.app, author);
    const listing = await publish(world.t.app, author, macro.id);
    expect(listing.kind).toBe('block');
    expect(listing.versions[0].bundle_sha).toMatch(/^[0-9a-f]{64}$/);
    expect(listing.versions[0].worktree_hash).toBeUndefined();
  });

  test('a code macro never synced, and an empty block program, are not publishable (409), and write nothing', async () => {
    const bare = await call(world.t.app, author, 'POST', '/api/macros', { name: 'Bare', kind: 'python' });
    const res = await call(world.t.app, author, 'POST', '/api/marketplace/listings', { macro_id: bare.json().id, title: 'x', summary: 'y' });
    expect(res.statusCode).toBe(409);
    expect(res.json().details.code).toBe('macro_not_publishable');
    const empty = await blockMacro(world.t.app, author, { version: 1, steps: [] });
    const res2 = await call(world.t.app, author, 'POST', '/api/marketplace/listings', { macro_id: empty.id, title: 'x', summary: 'y' });
    expect(res2.statusCode).toBe(409);
    const listings = await world.t.db.kysely.selectFrom('marketplace_listings').select('id').where('title', '=', 'x').execute();
    expect(listings).toEqual([]);
  });

  test("someone else's macro, and a missing one, answer 404", async () => {
    const theirs = await codeMacro(world.t.app, buyer, V1);
    for (const id of [theirs.id, 999_999]) {
      const res = await call(world.t.app, author, 'POST', '/api/marketplace/listings', { macro_id: id, title: 'Stolen', summary: 'no' });
      expect(res.statusCode).toBe(404);
    }
  });

  test('the version is frozen: the author re-syncing and editing changes nothing installed; a new version carries the edit', async () => {
    const macro = await codeMacro(world.t.app, author, V1, { rounds: 3 });
    const listing = await publish(world.t.app, author, macro.id);
    await syncCode(world.t.app, author, macro.id, V2);
    const first = await install(world.t.app, buyer, listing.id);
    expect(first.installed_from).toEqual({ listing_id: listing.id, version: 1 });
    expect((await currentZipOf(first.id)).worktree_hash).toBe(listing.versions[0].worktree_hash);

    const unchanged = await call(world.t.app, author, 'POST', `/api/marketplace/listings/${listing.id}/versions`, {});
    expect(unchanged.statusCode).toBe(201);
    expect(unchanged.json()).toMatchObject({ latest_version: 2, versions: [{ version: 2 }, { version: 1 }] });
    const again = await call(world.t.app, author, 'POST', `/api/marketplace/listings/${listing.id}/versions`, { notes: 'same' });
    expect(again.statusCode).toBe(409);
    expect(again.json().details.code).toBe('version_unchanged');

    // The copy stays on version 1 until its owner moves it.
    expect((await currentZipOf(first.id)).worktree_hash).toBe(listing.versions[0].worktree_hash);
    const moved = await call(world.t.app, buyer, 'PUT', `/api/marketplace/installed/${first.id}`, {});
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().installed_from).toEqual({ listing_id: listing.id, version: 2 });
    expect((await currentZipOf(first.id)).worktree_hash).toBe(unchanged.json().versions[0].worktree_hash);
    const back = await call(world.t.app, buyer, 'PUT', `/api/marketplace/installed/${first.id}`, { version: 1 });
    expect(back.json().installed_from.version).toBe(1);
    // Only the owner moves a copy, and only a copy moves.
    expect((await call(world.t.app, author, 'PUT', `/api/marketplace/installed/${first.id}`, {})).statusCode).toBe(404);
    expect((await call(world.t.app, author, 'PUT', `/api/marketplace/installed/${macro.id}`, {})).statusCode).toBe(404);
  });

  test("a new version, a change and a delete of someone else's listing answer 404", async () => {
    const macro = await codeMacro(world.t.app, author, V1);
    const listing = await publish(world.t.app, author, macro.id);
    expect((await call(world.t.app, buyer, 'POST', `/api/marketplace/listings/${listing.id}/versions`, {})).statusCode).toBe(404);
    expect((await call(world.t.app, buyer, 'PUT', `/api/marketplace/listings/${listing.id}`, { title: 'Mine now' })).statusCode).toBe(404);
    expect((await call(world.t.app, buyer, 'DELETE', `/api/marketplace/listings/${listing.id}`)).statusCode).toBe(404);
    const still = await call(world.t.app, author, 'GET', `/api/marketplace/listings/${listing.id}`);
    expect(still.json().title).toBe('Farm bot');
  });
});

describe('installing', () => {
  test("a code install gets the version's code (sharing the zip's bytes) and a Default profile with the version's arguments", async () => {
    const macro = await codeMacro(world.t.app, author, V1, { rounds: 3, mode: 'fast' });
    const listing = await publish(world.t.app, author, macro.id);
    const blobsBefore = await world.t.db.kysely.selectFrom('code_blobs').select('sha256').execute();
    const copy = await install(world.t.app, buyer, listing.id);
    expect(copy).toMatchObject({ kind: 'python', name: 'Farm bot', installed_from: { listing_id: listing.id, version: 1 } });
    const zip = await currentZipOf(copy.id);
    expect(zip).toMatchObject({ user_id: buyer.id, zip_sha256: (await currentZipOf(macro.id)).zip_sha256 });
    expect(await world.t.db.kysely.selectFrom('code_blobs').select('sha256').execute()).toHaveLength(blobsBefore.length);
    const profiles = await call(world.t.app, buyer, 'GET', `/api/macro-setting-profiles?macro_id=${copy.id}`);
    expect(profiles.json().items).toEqual([expect.objectContaining({ name: 'Default', is_default: true, args: { rounds: 3, mode: 'fast' } })]);
    // The author's later change of arguments is not what the next install gets either.
    const fetched = await call(world.t.app, buyer, 'GET', `/api/macros/${copy.id}`);
    expect(fetched.json().installed_from).toEqual({ listing_id: listing.id, version: 1 });
  });

  test('a block install gets the program; installing twice makes two macros; installs count others, not the author', async () => {
    const macro = await blockMacro(world.t.app, author);
    const listing = await publish(world.t.app, author, macro.id);
    await call(world.t.app, author, 'PUT', `/api/macros/${macro.id}`, { blocks: { version: 1, steps: [{ type: 'log', message: 'edited' }] } });
    const one = await install(world.t.app, buyer, listing.id);
    const two = await install(world.t.app, buyer, listing.id);
    expect(one.id).not.toBe(two.id);
    expect(one.blocks).toEqual(PROGRAM);
    await install(world.t.app, author, listing.id);
    const read = await call(world.t.app, buyer, 'GET', `/api/marketplace/listings/${listing.id}`);
    expect(read.json().installs).toBe(2);
  });

  test('a copy runs from its own snapshot: the author deleting the macro and the listing leaves it whole', async () => {
    const macro = await codeMacro(world.t.app, author, [{ name: 'main.py', data: 'print("kept")\n' }]);
    const listing = await publish(world.t.app, author, macro.id);
    const copy = await install(world.t.app, buyer, listing.id);
    const sha = (await currentZipOf(copy.id)).zip_sha256;
    expect((await call(world.t.app, author, 'DELETE', `/api/macros/${macro.id}`)).statusCode).toBe(204);
    // The listing still serves its version after the source macro went.
    const later = await install(world.t.app, buyer, listing.id);
    expect((await currentZipOf(later.id)).zip_sha256).toBe(sha);
    const noSource = await call(world.t.app, author, 'POST', `/api/marketplace/listings/${listing.id}/versions`, {});
    expect(noSource.json().details.code).toBe('source_macro_deleted');
    expect((await call(world.t.app, author, 'DELETE', `/api/marketplace/listings/${listing.id}`)).statusCode).toBe(204);
    expect((await call(world.t.app, buyer, 'GET', `/api/marketplace/listings/${listing.id}`)).statusCode).toBe(404);
    const blob = await world.t.db.kysely.selectFrom('code_blobs').select('sha256').where('sha256', '=', sha).executeTakeFirst();
    expect(blob).toBeDefined();
    expect((await call(world.t.app, buyer, 'GET', `/api/macros/${copy.id}`)).json().installed_from).toEqual({ listing_id: listing.id, version: 1 });
    // Once the last copy goes, so do its bytes.
    await call(world.t.app, buyer, 'DELETE', `/api/macros/${copy.id}`);
    await call(world.t.app, buyer, 'DELETE', `/api/macros/${later.id}`);
    expect(await world.t.db.kysely.selectFrom('code_blobs').select('sha256').where('sha256', '=', sha).executeTakeFirst()).toBeUndefined();
  });

  test("the images a version references are copied into the installer's library under the same ids", async () => {
    const png = await sharp({ create: { width: 6, height: 4, channels: 3, background: '#0a0' } }).png().toBuffer();
    const uploaded = await call(world.t.app, author, 'POST', '/api/images', { name: 'Play', image_base64: png.toString('base64') });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const imageId = uploaded.json().id as string;
    const macro = await codeMacro(world.t.app, author, [{ name: 'main.py', data: `svc.tap_image("${imageId}")\n` }]);
    const listing = await publish(world.t.app, author, macro.id);
    expect(listing.versions[0].image_ids).toEqual([imageId]);
    expect((await call(world.t.app, buyer, 'GET', `/api/images/${imageId}`)).statusCode).toBe(404);
    await install(world.t.app, buyer, listing.id);
    const copied = await call(world.t.app, buyer, 'GET', `/api/images/${imageId}`);
    expect(copied.statusCode, copied.body).toBe(200);
    expect(copied.json()).toMatchObject({ id: imageId, width: 6, height: 4 });
    // A block program's image steps travel the same way.
    const program = { version: 1, steps: [{ type: 'tap', image_id: imageId }] };
    const block = await blockMacro(world.t.app, author, program);
    const blockListing = await publish(world.t.app, author, block.id);
    expect(blockListing.versions[0].image_ids).toEqual([imageId]);
  });

  test('an unknown version answers 404 version_not_found; a missing listing 404', async () => {
    const macro = await blockMacro(world.t.app, author);
    const listing = await publish(world.t.app, author, macro.id);
    const res = await call(world.t.app, buyer, 'POST', `/api/marketplace/listings/${listing.id}/install`, { version: 7 });
    expect(res.statusCode).toBe(404);
    expect(res.json().details.code).toBe('version_not_found');
    expect((await call(world.t.app, buyer, 'POST', '/api/marketplace/listings/999999/install', {})).statusCode).toBe(404);
  });

  test('an install with no body at all installs the latest version', async () => {
    const macro = await blockMacro(world.t.app, author);
    const listing = await publish(world.t.app, author, macro.id);
    const res = await world.t.app.inject({ method: 'POST', url: `/api/marketplace/listings/${listing.id}/install`, headers: buyer.auth });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().installed_from.version).toBe(1);
  });
});

describe('visibility', () => {
  test("a listing its author hides is seen only by the author; others get 404 on read, install and review", async () => {
    const macro = await blockMacro(world.t.app, author);
    const listing = await publish(world.t.app, author, macro.id);
    const hidden = await call(world.t.app, author, 'PUT', `/api/marketplace/listings/${listing.id}`, { visible: false });
    expect(hidden.json().visible).toBe(false);
    expect((await call(world.t.app, author, 'GET', `/api/marketplace/listings/${listing.id}`)).statusCode).toBe(200);
    expect((await call(world.t.app, buyer, 'GET', `/api/marketplace/listings/${listing.id}`)).statusCode).toBe(404);
    expect((await call(world.t.app, buyer, 'POST', `/api/marketplace/listings/${listing.id}/install`, {})).statusCode).toBe(404);
    expect((await call(world.t.app, buyer, 'PUT', `/api/marketplace/listings/${listing.id}/review`, { stars: 5 })).statusCode).toBe(404);
    expect((await call(world.t.app, buyer, 'GET', `/api/marketplace/listings/${listing.id}/reviews`)).statusCode).toBe(404);
  });
});
