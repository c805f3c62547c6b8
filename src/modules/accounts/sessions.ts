// Sessions of the signed-in application: `sess_` + 48 hex, stored only as a SHA-256,
// valid 30 days. Logout deletes the row, so the token stops at once.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DAY_MS, toIso } from '../../lib/clock.js';
import { randomHex, sha256Hex } from '../../lib/crypto.js';

export const SESSION_DAYS = 30;
export const SESSION_COOKIE = 'session';
const TOKEN_PATTERN = /^sess_[0-9a-f]{48}$/;

export interface IssuedSession {
  token: string;
  expires_at: string;
}

export async function createSession(db: Kysely<Database> | Transaction<Database>, userId: number, now: number): Promise<IssuedSession> {
  const token = `sess_${randomHex(24)}`;
  const expiresAt = now + SESSION_DAYS * DAY_MS;
  await db
    .insertInto('sessions')
    .values({ user_id: userId, token_hash: sha256Hex(token), created_at: now, expires_at: expiresAt })
    .execute();
  return { token, expires_at: toIso(expiresAt) };
}

/** The live session for a token, or null for anything unknown, malformed or expired. */
export async function findSession(db: Kysely<Database>, token: string, now: number): Promise<{ id: number; userId: number } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id', 'sessions.user_id', 'sessions.expires_at', 'users.disabled_at'])
    .where('sessions.token_hash', '=', sha256Hex(token))
    .executeTakeFirst();
  if (!row || row.expires_at <= now || row.disabled_at !== null) return null;
  return { id: row.id, userId: row.user_id };
}

export async function deleteSession(db: Kysely<Database>, sessionId: number): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}
