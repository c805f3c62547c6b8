// The canonical JSON of a block program, whose SHA-256 is a block run's `bundle_sha`
// (lib/canonical-json.ts): two programs that differ only in key order or spacing have the
// same canonical JSON, and so the same bundle_sha.
import { createHash } from 'node:crypto';

export { canonicalJson } from '../../../lib/canonical-json.js';

export const sha256OfBytes = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
