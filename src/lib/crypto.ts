// Secrets: random tokens, one-way hashes for what we only need to recognise (keys,
// sessions, tokens), a memory-hard hash for passwords, and authenticated encryption for
// what must be recovered later (webhook secrets, proxy passwords).
import { createCipheriv, createDecipheriv, hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export function sha256Hex(value: string | Buffer): string {
  // The one-shot hash is about twice as fast as createHash() for short inputs such as a key,
  // which every key request hashes.
  return hash('sha256', value, 'hex');
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** Compares two strings without leaking where they differ; unequal lengths compare as different. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** OWASP's scrypt recommendation N=2^15, r=8, p=3: 32 MiB of memory per hash. */
export const PASSWORD_HASH_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 3 };

function scryptAsync(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    scrypt(password, salt, 32, { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolvePromise(key),
    );
  });
}

/** Format: scrypt$N$r$p$salt$hash (base64), so parameters can be raised without breaking old hashes. */
export async function hashPassword(password: string, params: ScryptParams = PASSWORD_HASH_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** AES-256-GCM; output is base64 of iv (12) + tag (16) + ciphertext. */
export function encryptSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

export function decryptSecret(sealed: string, key: Buffer): string {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
