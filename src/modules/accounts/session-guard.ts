// The application's session guard: a bearer token or the `session` cookie. Application
// routes never accept an API key. Lives beside the sessions it checks; the HTTP layer
// receives it as a function (http/guards/install.ts) and imports no module.
import { parse } from 'cookie';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { UnauthorizedError } from '../../core/errors.js';
import type { Database } from '../../db/schema.js';
import type { RequestGuard } from '../../http/guards/install.js';
import type { Clock } from '../../lib/clock.js';
import { findSession, SESSION_COOKIE } from './sessions.js';

function presentedSession(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization?.toLowerCase().startsWith('bearer ')) return authorization.slice(7).trim();
  const cookies = request.headers.cookie;
  return cookies ? parse(cookies)[SESSION_COOKIE] : undefined;
}

/** A session credential and no key: the application calling a key route (http/guards/install.ts). */
export function presentsSession(request: FastifyRequest): boolean {
  if (request.headers['x-api-key'] !== undefined) return false;
  const authorization = request.headers.authorization;
  if (authorization !== undefined) return /^bearer\s+sess_/i.test(authorization);
  const cookies = request.headers.cookie;
  return cookies !== undefined && parse(cookies)[SESSION_COOKIE] !== undefined;
}

export function sessionGuard(db: Kysely<Database>, clock: Clock): RequestGuard {
  return async (request) => {
    const token = presentedSession(request);
    if (!token) {
      throw new UnauthorizedError(
        'missing_credentials',
        request.headers['x-api-key'] !== undefined
          ? 'This route belongs to the signed-in application and does not accept API keys. Sign in and send the session token.'
          : 'Sign in first: this route needs a session token (Authorization: Bearer sess_…) or the session cookie.',
      );
    }
    const session = await findSession(db, token, clock.now());
    if (!session) throw new UnauthorizedError('missing_credentials', 'This session has expired or was signed out. Sign in again.');
    request.caller = { userId: session.userId, keyId: null, sessionId: session.id, scopes: [] };
  };
}
