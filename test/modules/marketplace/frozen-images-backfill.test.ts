// Migration 0019's backfill: versions published before it get, as their frozen pictures, the
// ones their author still has; a picture the author deleted meanwhile cannot be recovered.
import sharp from 'sharp';
import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { marketplaceImages } from '../../../src/db/migrations/0019_marketplace_images.js';
import { useAppAndUser } from '../../helpers/app-user.js';
import { call, codeMacro, install, MARKETPLACE_ENV, publish } from '../../helpers/marketplace.js';
import { signUp } from '../../helpers/users.js';

const world = useAppAndUser({ env: MARKETPLACE_ENV });

async function upload(colour: string) {
  const png = await sharp({ create: { width: 5, height: 5, channels: 3, background: colour } }).png().toBuffer();
  const res = await call(world.t.app, world.user, 'POST', '/api/images', { name: colour, image_base64: png.toString('base64') });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

test('the backfill freezes the pictures the author still has, once per listing and id', async () => {
  const kept = await upload('#123');
  const deleted = await upload('#456');
  const macro = await codeMacro(world.t.app, world.user, [{ name: 'main.py', data: `svc.tap_image("${kept}")\nsvc.tap_image("${deleted}")\n` }]);
  const listing = await publish(world.t.app, world.user, macro.id);
  const db = world.t.db.kysely;
  // As before 0019: no frozen pictures; then the author deletes one of them.
  await sql`drop table marketplace_images`.execute(db);
  await sql`drop index marketplace_listings_rating_idx`.execute(db);
  expect((await call(world.t.app, world.user, 'DELETE', `/api/images/${deleted}`)).statusCode).toBe(204);

  await marketplaceImages(world.t.db.dialect).up(db as never);
  const rows = await db.selectFrom('marketplace_images').select(['listing_id', 'image_id']).execute();
  expect(rows).toEqual([{ listing_id: listing.id, image_id: kept }]);

  const buyer = await signUp(world.t.app);
  await install(world.t.app, buyer, listing.id);
  expect((await call(world.t.app, buyer, 'GET', `/api/images/${kept}`)).statusCode).toBe(200);
  expect((await call(world.t.app, buyer, 'GET', `/api/images/${deleted}`)).statusCode).toBe(404);
});
