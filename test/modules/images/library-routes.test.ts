// The image library's application routes: upload (dimensions read from the picture), list,
// read, content, delete; every refusal the contract names, each proven to change nothing;
// someone else's ids; keys refused on these session routes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { patternImage, uploadImage } from '../../helpers/images.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';

let t: TestApp;
let me: SignedUpUser;
let other: SignedUpUser;
beforeAll(async () => {
  t = await createTestApp();
  me = await signUp(t.app);
  other = await signUp(t.app);
});
afterAll(() => t.close());

const post = (user: SignedUpUser, payload: unknown) => t.app.inject({ method: 'POST', url: '/api/images', headers: user.auth, payload: payload as object });
const get = (user: SignedUpUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.auth });
const rowCount = async () => Number((await t.db.kysely.selectFrom('images').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

/** Posts, expects the status and code, and checks that nothing was stored. */
async function expectRefused(payload: unknown, status: number, code: string) {
  const before = await rowCount();
  const res = await post(me, payload);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().details.code).toBe(code);
  expect(await rowCount()).toBe(before);
  return res.json();
}

describe('upload and read back', () => {
  test('a PNG is stored with the size read from the picture; record, content and list agree', async () => {
    const png = await patternImage(40, 24);
    const res = await post(me, { name: '  Play button ', image_base64: png.toString('base64'), width: 1 });
    // Unknown fields are refused: the size is never the client's to say.
    expect(res.statusCode).toBe(422);
    const created = await post(me, { name: '  Play button ', image_base64: png.toString('base64') });
    expect(created.statusCode, created.body).toBe(201);
    const image = created.json();
    expect(image).toEqual({
      id: expect.stringMatching(/^img_[0-9a-f]{16}$/),
      name: 'Play button',
      width: 40,
      height: 24,
      content_type: 'image/png',
      size_bytes: png.length,
      source: 'upload',
      created_at: new Date(t.clock.now()).toISOString(),
    });
    expect((await get(me, `/api/images/${image.id}`)).json()).toEqual(image);
    const content = await get(me, `/api/images/${image.id}/content`);
    expect(content.statusCode).toBe(200);
    expect(content.headers['content-type']).toBe('image/png');
    expect(content.headers['cache-control']).toContain('private');
    expect(Buffer.compare(content.rawPayload, png)).toBe(0);
    const list = (await get(me, '/api/images?name=PLAY')).json();
    expect(list).toMatchObject({ page: 1, page_size: 50, total_rows: 1, total_pages: 1 });
    expect(list.rows).toEqual([image]);
  });

  test('a JPEG keeps its type; the list is newest first and filters by name and source', async () => {
    const jpeg = await patternImage(30, 50, 'jpeg');
    t.clock.advance(1000);
    const image = await uploadImage(t.app, me, jpeg, 'Coin 50%');
    expect(image).toMatchObject({ width: 30, height: 50, content_type: 'image/jpeg' });
    const content = await get(me, `/api/images/${image.id}/content`);
    expect(content.headers['content-type']).toBe('image/jpeg');
    const all = (await get(me, '/api/images')).json();
    expect(all.rows[0].id).toBe(image.id);
    // `%` matches itself (decisions.md §2).
    expect((await get(me, '/api/images?name=n%25')).json().total_rows).toBe(0);
    expect((await get(me, '/api/images?name=n%2050%25')).json().rows.map((r: { id: string }) => r.id)).toEqual([image.id]);
    expect((await get(me, '/api/images?source=crop')).json().total_rows).toBe(0);
    expect((await get(me, '/api/images?source=elsewhere')).statusCode).toBe(422);
    expect((await get(me, '/api/images?page_size=1&page=2')).json()).toMatchObject({ total_rows: 2, total_pages: 2, rows: [expect.objectContaining({ name: 'Play button' })] });
  });

  test('delete answers 204, then the image is gone everywhere', async () => {
    const image = await uploadImage(t.app, me, await patternImage(16, 16));
    const res = await t.app.inject({ method: 'DELETE', url: `/api/images/${image.id}`, headers: me.auth });
    expect(res.statusCode).toBe(204);
    for (const url of [`/api/images/${image.id}`, `/api/images/${image.id}/content`]) expect((await get(me, url)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/images/${image.id}`, headers: me.auth })).statusCode).toBe(404);
  });
});

describe('refusals', () => {
  test('bad base64 is 422 and stores nothing', async () => {
    const png = (await patternImage(8, 8)).toString('base64');
    for (const text of [`${png.slice(0, 4)}*${png.slice(5)}`, png.replace(/=+$/, ''), png.replace(/\+/g, '-').replace(/\//g, '_') + '!']) {
      const body = await expectRefused({ name: 'x', image_base64: text }, 422, 'validation_failed');
      expect(body.details.errors[0].path).toBe('body.image_base64');
    }
  });

  test('bytes that are not a PNG or JPEG are 422 invalid_image', async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } }).gif().toBuffer();
    const webp = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } }).webp().toBuffer();
    for (const bytes of [Buffer.from('just text, no picture'), gif, webp]) {
      const body = await expectRefused({ name: 'x', image_base64: bytes.toString('base64') }, 422, 'invalid_image');
      expect(body.message).toMatch(/PNG or JPEG/);
    }
  });

  test('a PNG cut short is refused, not stored to fail every match later', async () => {
    const png = await patternImage(200, 200);
    await expectRefused({ name: 'x', image_base64: png.subarray(0, Math.floor(png.length / 2)).toString('base64') }, 422, 'invalid_image');
  });

  test('a decompression bomb is refused from its header', async () => {
    // A real 8×8 PNG whose header claims 9000×9000 (CRC fixed, so only the size is a lie).
    const bomb = Buffer.from(await patternImage(8, 8));
    bomb.writeUInt32BE(9000, 16);
    bomb.writeUInt32BE(9000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    const body = await expectRefused({ name: 'x', image_base64: bomb.toString('base64') }, 422, 'image_too_large');
    expect(body.details).toMatchObject({ width: 9000, height: 9000 });
  });

  test('over 5 MiB decoded is 413; a body over the route limit is 413 too', async () => {
    // Random bytes in a PNG do not compress: a valid picture just over 5 MiB.
    const noise = Buffer.alloc(1400 * 1300 * 3);
    for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width: 1400, height: 1300, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(big.length).toBeLessThan(5.5 * 1024 * 1024);
    const body = await expectRefused({ name: 'big', image_base64: big.toString('base64') }, 413, 'payload_too_large');
    expect(body.details.limit).toBe(5 * 1024 * 1024);
    await expectRefused({ name: 'big', image_base64: 'A'.repeat(8 * 1024 * 1024) }, 413, 'payload_too_large');
  });

  test('names: empty, blank and over 100 characters are 422', async () => {
    const image_base64 = (await patternImage(8, 8)).toString('base64');
    for (const name of ['', '   ', 'x'.repeat(101)]) await expectRefused({ name, image_base64 }, 422, 'validation_failed');
    await expectRefused({ image_base64 }, 422, 'validation_failed');
    await expectRefused({ name: 'x', image_base64: 42 }, 422, 'validation_failed');
  });
});

describe('ownership and credentials', () => {
  test("another account's image is 404 on every route, and stays", async () => {
    const theirs = await uploadImage(t.app, other, await patternImage(12, 12));
    for (const url of [`/api/images/${theirs.id}`, `/api/images/${theirs.id}/content`]) expect((await get(me, url)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/images/${theirs.id}`, headers: me.auth })).statusCode).toBe(404);
    expect((await get(me, '/api/images')).json().rows.map((r: { id: string }) => r.id)).not.toContain(theirs.id);
    expect((await get(other, `/api/images/${theirs.id}`)).statusCode).toBe(200);
  });

  test('an id of the wrong shape is 404, not a 500', async () => {
    for (const id of ['img_XYZ', 'img_00000000000000000', '1', `img_${'a'.repeat(16)}%27`]) expect((await get(me, `/api/images/${id}`)).statusCode).toBe(404);
  });

  test('a key on these application routes is 401 missing_credentials', async () => {
    const { key } = await createKey(t.app, me);
    const png = (await patternImage(8, 8)).toString('base64');
    const res = await t.app.inject({ method: 'POST', url: '/api/images', headers: withKey(key), payload: { name: 'x', image_base64: png } });
    expect(res.statusCode).toBe(401);
    expect(res.json().details.code).toBe('missing_credentials');
    expect((await t.app.inject({ method: 'GET', url: '/api/images', headers: withKey(key) })).statusCode).toBe(401);
  });
});
