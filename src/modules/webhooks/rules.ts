// The pure rules of webhooks, decided in decisions.md §4: which events an endpoint gets,
// how a request is signed, and when the next attempt is due.
import { createHmac, randomBytes } from 'node:crypto';

/** `*` matches everything; `prefix.*` every type starting with `prefix.`; anything else exactly. */
export function patternMatches(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

export function subscribes(patterns: string[], type: string): boolean {
  return patterns.some((pattern) => patternMatches(pattern, type));
}

export type Scope = { mode: 'all' } | { mode: 'groups'; groupIds: number[] } | { mode: 'devices'; deviceIds: number[] };

/** An event with no device matches only `all`: a narrowed scope asks for particular devices. */
export function scopeMatches(scope: Scope, deviceId: number | null, groupId: number | null): boolean {
  if (scope.mode === 'all') return true;
  if (scope.mode === 'groups') return groupId !== null && scope.groupIds.includes(groupId);
  return deviceId !== null && scope.deviceIds.includes(deviceId);
}

/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export const SECRET_PREFIX_LENGTH = 12;

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the bytes after `whsec_`. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** A delay of `seconds` with ±20% jitter, so endpoints recovering from an outage are not hit in lock step. */
export function jittered(seconds: number, random: () => number): number {
  return Math.round(seconds * 1000 * (0.8 + 0.4 * random()));
}

/**
 * Retry-After (seconds or an HTTP date) in ms from `now`; undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The delay before the next attempt: the scheduled delay with jitter, pushed later by a
 * receiver's Retry-After but never past twice the scheduled delay (a receiver cannot park
 * its deliveries for days), and never earlier than the schedule.
 */
export function nextDelayMs(scheduledSeconds: number, retryAfterMs: number | undefined, random: () => number): number {
  const base = jittered(scheduledSeconds, random);
  if (retryAfterMs === undefined) return base;
  return Math.max(base, Math.min(retryAfterMs, scheduledSeconds * 2000));
}
