// Pictures for image-library tests: small patterned PNG/JPEG files made with sharp, and a
// row with a chosen id for tests whose code names a fixed `img_…` (the library itself only
// hands out random ids).
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import type { SignedUpUser } from './users.js';

/** A width × height picture with a diagonal pattern (not flat, so it can be matched). */
export async function patternImage(width: number, height: number, format: 'png' | 'jpeg' = 'png', seed = 0): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      pixels[at] = (x * 7 + y * 3 + seed) % 256;
      pixels[at + 1] = ((x ^ y) * 5 + seed) % 256;
      pixels[at + 2] = (x * y + seed * 11) % 256;
    }
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer();
}

/** Stores `bytes` (a small PNG by default) in `userId`'s library under exactly `id`. */
export async function seedImage(db: Db, userId: number, id: string, bytes?: Buffer): Promise<void> {
  const content = bytes ?? (await patternImage(8, 8));
  const meta = await sharp(content).metadata();
  await db.kysely
    .insertInto('images')
    .values({
      user_id: userId,
      id,
      name: id,
      width: meta.width ?? 0,
      height: meta.height ?? 0,
      content_type: meta.format === 'jpeg' ? 'image/jpeg' : 'image/png',
      size_bytes: content.length,
      sha256: sha256Hex(content),
      source: 'upload',
      content,
      created_at: Date.now(),
    })
    .execute();
}

/** Uploads through POST /api/images and answers the record. */
export async function uploadImage(app: FastifyInstance, user: SignedUpUser, bytes: Buffer, name = 'button'): Promise<{ id: string; width: number; height: number }> {
  const res = await app.inject({ method: 'POST', url: '/api/images', headers: user.auth, payload: { name, image_base64: bytes.toString('base64') } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
