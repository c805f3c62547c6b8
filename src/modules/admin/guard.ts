// The operator's admin API: absent (404) unless ADMIN_TOKEN is set, then a bearer match.
import { NotFoundError, UnauthorizedError } from '../../core/errors.js';
import type { RequestGuard } from '../../http/guards/install.js';
import { constantTimeEqual, sha256Hex } from '../../lib/crypto.js';

export function adminGuard(adminToken: string | undefined): RequestGuard {
  return async (request) => {
    if (!adminToken) throw new NotFoundError(`No route ${request.method} ${request.url.split('?')[0]}.`);
    const authorization = request.headers.authorization ?? '';
    const presented = authorization.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : '';
    // Hash both sides so the comparison takes the same time whatever the lengths.
    if (!constantTimeEqual(sha256Hex(presented), sha256Hex(adminToken))) {
      throw new UnauthorizedError('missing_credentials', 'Admin routes need Authorization: Bearer <ADMIN_TOKEN>.');
    }
  };
}
