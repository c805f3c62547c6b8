// ImageLibrary.copy, which the marketplace uses: images land in the other account under the
// same ids (so copied code runs unchanged), bytes and all; ids the source lacks are named;
// copying again changes nothing; neither account's other images are touched.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ServiceContext } from '../../../src/core/context.js';
import { ImageLibrary } from '../../../src/modules/images/index.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { patternImage } from '../../helpers/images.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';

let t: TestApp;
let library: ImageLibrary;
let author: SignedUpUser;
let buyer: SignedUpUser;
const ctxOf = (user: SignedUpUser): ServiceContext => ({ userId: user.id, keyId: null, sessionId: null, scopes: [], requestId: 'test', clientAddress: null });

beforeAll(async () => {
  t = await createTestApp();
  library = new ImageLibrary(t.db.kysely, t.clock);
  author = await signUp(t.app);
  buyer = await signUp(t.app);
});
afterAll(() => t.close());

test('copies named images with their ids and bytes; reports missing ones; a second copy is a no-op', async () => {
  const png = await patternImage(20, 10);
  const a = await library.store(ctxOf(author), { name: 'a', bytes: png, source: 'crop' });
  const b = await library.store(ctxOf(author), { name: 'b', bytes: await patternImage(5, 5, 'jpeg'), source: 'upload' });
  const unshared = await library.store(ctxOf(author), { name: 'private', bytes: png, source: 'upload' });
  const stranger = await library.store(ctxOf(buyer), { name: 'own', bytes: png, source: 'upload' });
  const missing = 'img_ffffffffffffffff';
  t.clock.advance(5000);

  const first = await library.copy(ctxOf(author), author.id, buyer.id, [a.id, b.id, missing, a.id, 'not-an-id']);
  expect(first).toEqual({ copied: [a.id, b.id], already_present: [], missing: [missing, 'not-an-id'] });
  const copiedA = await library.get(ctxOf(buyer), a.id);
  // Same picture, same name and source; created when it arrived in this library.
  expect(copiedA).toEqual({ ...a, created_at: new Date(t.clock.now()).toISOString() });
  expect(Buffer.compare((await library.content(ctxOf(buyer), a.id)).bytes, png)).toBe(0);
  expect((await library.get(ctxOf(buyer), b.id)).content_type).toBe('image/jpeg');
  await expect(library.get(ctxOf(buyer), unshared.id)).rejects.toMatchObject({ status: 404 });

  expect(await library.copy(ctxOf(author), author.id, buyer.id, [a.id])).toEqual({ copied: [], already_present: [a.id], missing: [] });
  // The copy is the buyer's own: deleting it leaves the author's.
  await library.remove(ctxOf(buyer), a.id);
  expect((await library.get(ctxOf(author), a.id)).id).toBe(a.id);
  expect((await library.list(ctxOf(buyer), {})).rows.map((r) => r.id).sort()).toEqual([b.id, stranger.id].sort());
});

test('copying to oneself copies nothing', async () => {
  const a = await library.store(ctxOf(author), { name: 'self', bytes: await patternImage(6, 6), source: 'upload' });
  expect(await library.copy(ctxOf(author), author.id, author.id, [a.id])).toEqual({ copied: [], already_present: [a.id], missing: [] });
});
