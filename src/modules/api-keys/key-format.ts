// The key: `svc_` + 48 lowercase hex from a cryptographic source. Only its SHA-256 is
// stored; the listing shows its first twelve characters.
import { randomBytes } from 'node:crypto';
import { type ExpiryChoice, KEY_PATTERN, type KeyState } from '../../core/values.js';
import { sha256Hex } from '../../lib/crypto.js';

export { KEY_PATTERN };
export const PREFIX_LENGTH = 12;

export function generateKey(): { key: string; hash: string; prefix: string } {
  const key = `svc_${randomBytes(24).toString('hex')}`;
  return { key, hash: sha256Hex(key), prefix: key.slice(0, PREFIX_LENGTH) };
}


const EXPIRY_DAYS: Record<ExpiryChoice, number | null> = { '30d': 30, '90d': 90, '1y': 365, never: null };

export function expiryFor(choice: ExpiryChoice, now: number): number | null {
  const days = EXPIRY_DAYS[choice];
  return days === null ? null : now + days * 86_400_000;
}

export function keyState(key: { revoked_at: number | null; expires_at: number | null }, now: number): KeyState {
  if (key.revoked_at !== null) return 'Revoked';
  if (key.expires_at !== null && key.expires_at <= now) return 'Expired';
  return 'Active';
}
