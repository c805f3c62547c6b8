// The canonical JSON of a block program, whose SHA-256 is a block run's `bundle_sha`: object
// keys sorted by UTF-16 code units at every level (as RFC 8785 sorts them), no white space, numbers and strings as
// JSON.stringify writes them (which is what RFC 8785 prescribes for the values a program
// holds: integers, short decimals and strings). Two programs that differ only in key order or
// spacing have the same canonical JSON, and so the same bundle_sha.
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const sha256OfBytes = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
