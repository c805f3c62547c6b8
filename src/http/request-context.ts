// The one place a route turns its request into the caller a service takes first
// (`fn(ctx, input)`); the tool server and the workers build the same shapes their own way.
import type { FastifyRequest } from 'fastify';
import type { CallOrigin, ServiceContext } from '../core/context.js';
import { callerOf } from './route-auth.js';

/** Any request, public and operator routes included: its id in the logs and the client's address. */
export function originOf(request: FastifyRequest): CallOrigin {
  return { requestId: request.id, clientAddress: request.ip ?? null };
}

/** The caller of a key or session route, as its guard admitted it. */
export function contextOf(request: FastifyRequest): ServiceContext {
  const { userId, keyId, sessionId, scopes } = callerOf(request);
  return { ...originOf(request), userId, keyId, sessionId, scopes };
}
