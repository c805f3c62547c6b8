// A version's images are frozen with it: publishing copies the pictures its code or program
// names out of the author's library, installs copy them from there, so the author deleting a
// picture later changes nothing anyone installs. A reference to a picture the library does
// not have is refused at publication, writing nothing.
import sharp from 'sharp';
import { beforeAll, describe, expect, test } from 'vitest';
import { useAppAndUser } from '../../helpers/app-user.js';
import { blockMacro, call, codeMacro, install, MARKETPLACE_ENV, marketplaceCounts, publish, syncCode } from '../../helpers/marketplace.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';

const world = useAppAndUser({ env: MARKETPLACE_ENV });
let author: SignedUpUser;
let buyer: SignedUpUser;
beforeAll(async () => {
  author = world.user;
  buyer = await signUp(world.t.app);
});

async function upload(user: SignedUpUser, colour: string, name = 'Play button') {
  const png = await sharp({ create: { width: 6, height: 4, channels: 3, background: colour } }).png().toBuffer();
  const res = await call(world.t.app, user, 'POST', '/api/images', { name, image_base64: png.toString('base64') });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function bytesOf(user: SignedUpUser, id: string) {
  const res = await world.t.app.inject({ method: 'GET', url: `/api/images/${id}/content`, headers: user.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.rawPayload;
}

async function frozenRows(listingId: number) {
  return world.t.db.kysely.selectFrom('marketplace_images').select(['image_id', 'sha256']).where('listing_id', '=', listingId).orderBy('image_id').execute();
}

describe('frozen images', () => {
  test('a code version keeps its picture after the author deletes it: installs still get the same id and bytes', async () => {
    const imageId = await upload(author, '#0a0');
    const original = await bytesOf(author, imageId);
    const macro = await codeMacro(world.t.app, author, [{ name: 'main.py', data: `svc.tap_image("${imageId}")\n` }]);
    const listing = await publish(world.t.app, author, macro.id);
    expect(await frozenRows(listing.id)).toHaveLength(1);
    expect((await call(world.t.app, author, 'DELETE', `/api/images/${imageId}`)).statusCode).toBe(204);
    await install(world.t.app, buyer, listing.id);
    expect((await bytesOf(buyer, imageId)).equals(original)).toBe(true);
    // The author installing their own listing gets the picture back too.
    await install(world.t.app, author, listing.id);
    expect((await bytesOf(author, imageId)).equals(original)).toBe(true);
  });

  test('a block version freezes its image steps; a later version freezes its new picture and version 1 keeps its own', async () => {
    const first = await upload(author, '#a00', 'Start');
    const block = await blockMacro(world.t.app, author, { version: 1, steps: [{ type: 'tap', image_id: first }] });
    const listing = await publish(world.t.app, author, block.id);
    const second = await upload(author, '#00a', 'Stop');
    const put = await call(world.t.app, author, 'PUT', `/api/macros/${block.id}`, { blocks: { version: 1, steps: [{ type: 'tap', image_id: first }, { type: 'if_image', image_id: second, then: [{ type: 'wait', ms: 100 }] }] } });
    expect(put.statusCode, put.body).toBe(200);
    const v2 = await call(world.t.app, author, 'POST', `/api/marketplace/listings/${listing.id}/versions`, {});
    expect(v2.statusCode, v2.body).toBe(201);
    expect(v2.json().versions[0].image_ids).toEqual([first, second]);
    // One frozen copy per id, however many versions name it.
    expect((await frozenRows(listing.id)).map((r) => r.image_id).sort()).toEqual([first, second].sort());
    await call(world.t.app, author, 'DELETE', `/api/images/${first}`);
    await call(world.t.app, author, 'DELETE', `/api/images/${second}`);

    const other = await signUp(world.t.app);
    await install(world.t.app, other, listing.id, { version: 1 });
    expect((await call(world.t.app, other, 'GET', `/api/images/${first}`)).statusCode).toBe(200);
    expect((await call(world.t.app, other, 'GET', `/api/images/${second}`)).statusCode).toBe(404);
    await install(world.t.app, other, listing.id);
    expect((await call(world.t.app, other, 'GET', `/api/images/${second}`)).json()).toMatchObject({ id: second, name: 'Stop', width: 6, height: 4 });
  });

  test("a picture already in the installer's library is kept, not replaced", async () => {
    const imageId = await upload(author, '#0aa', 'Shared');
    const macro = await codeMacro(world.t.app, author, [{ name: 'main.py', data: `svc.find_image("${imageId}")\n` }]);
    const listing = await publish(world.t.app, author, macro.id);
    const someone = await signUp(world.t.app);
    await install(world.t.app, someone, listing.id);
    const before = (await call(world.t.app, someone, 'GET', `/api/images/${imageId}`)).json();
    await install(world.t.app, someone, listing.id);
    expect((await call(world.t.app, someone, 'GET', `/api/images/${imageId}`)).json()).toEqual(before);
  });

  test('a reference to a picture the author does not have is refused with 409 macro_not_publishable, writing nothing', async () => {
    const gone = await upload(author, '#aa0', 'Deleted');
    await call(world.t.app, author, 'DELETE', `/api/images/${gone}`);
    const macro = await codeMacro(world.t.app, author, [{ name: 'main.py', data: `svc.tap_image("${gone}")\n` }]);
    const before = await marketplaceCounts(world.t);
    const res = await call(world.t.app, author, 'POST', '/api/marketplace/listings', { macro_id: macro.id, title: 'Broken', summary: 'Names a deleted picture' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().details.code).toBe('macro_not_publishable');
    expect(res.json().message).toContain(gone);
    expect(await marketplaceCounts(world.t)).toEqual(before);

    // A new version that starts naming a missing picture is refused the same way.
    const fine = await codeMacro(world.t.app, author, [{ name: 'main.py', data: 'print("no pictures")\n' }]);
    const listing = await publish(world.t.app, author, fine.id);
    await syncCode(world.t.app, author, fine.id, [{ name: 'main.py', data: `svc.tap_image("${gone}")\n` }]);
    const middle = await marketplaceCounts(world.t);
    const v2 = await call(world.t.app, author, 'POST', `/api/marketplace/listings/${listing.id}/versions`, {});
    expect(v2.statusCode, v2.body).toBe(409);
    expect(v2.json().details.code).toBe('macro_not_publishable');
    expect(await marketplaceCounts(world.t)).toEqual(middle);
  });

  test("deleting a listing deletes its frozen pictures; installed copies keep theirs", async () => {
    const imageId = await upload(author, '#555', 'Kept');
    const macro = await codeMacro(world.t.app, author, [{ name: 'main.py', data: `svc.tap_image("${imageId}")\n` }]);
    const listing = await publish(world.t.app, author, macro.id);
    const someone = await signUp(world.t.app);
    await install(world.t.app, someone, listing.id);
    expect((await call(world.t.app, author, 'DELETE', `/api/marketplace/listings/${listing.id}`)).statusCode).toBe(204);
    expect(await frozenRows(listing.id)).toEqual([]);
    expect((await call(world.t.app, someone, 'GET', `/api/images/${imageId}`)).statusCode).toBe(200);
  });
});
