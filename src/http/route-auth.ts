// Every route declares who may call it in its options (`config.auth`), next to its path.
// One hook applies the matching guard, and the OpenAPI security is derived from the same
// declaration, so the description cannot disagree with the code.
import type { Scope, ServiceContext } from '../core/context.js';

export type RouteAuth =
  /**
   * A key route. `scope` null = any key; 'full' = full-access keys only. The owner's own
   * signed-in session is accepted too (it is the application, with full access) unless
   * `keyOnly` says the route is about the key itself (`/api/whoami`).
   */
  | { kind: 'apiKey'; scope: Scope | 'full' | null; keyOnly?: boolean }
  /**
   * The tool server (`/mcp`): an API key (`X-API-KEY` or `Authorization: Bearer`) or a
   * tool-server token, through the key gate; each tool checks its own scope.
   */
  | { kind: 'toolClient' }
  | { kind: 'session' }
  | { kind: 'admin' }
  | { kind: 'public' };

/**
 * Every key route with POST takes an optional `Idempotency-Key` (decisions.md §19): derived
 * from the declaration, so a new route cannot forget it. The tool server (`/mcp`, JSON-RPC
 * with its own request ids) is not a key route in this sense.
 */
export const isIdempotentRoute = (method: string, auth: RouteAuth) => method === 'POST' && auth.kind === 'apiKey';

/** Who the guard admitted; routes pass it on as a ServiceContext (request-context.ts). */
export type Caller = Pick<ServiceContext, 'userId' | 'keyId' | 'sessionId' | 'scopes'>;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    caller?: Caller;
  }
}

export const keyRoute = (scope: Scope | null = null, options: { keyOnly?: boolean } = {}) => ({ auth: { kind: 'apiKey', scope, ...options } as RouteAuth });
export const fullAccessKeyRoute = () => ({ auth: { kind: 'apiKey', scope: 'full' } as RouteAuth });
export const toolClientRoute = () => ({ auth: { kind: 'toolClient' } as RouteAuth });
export const sessionRoute = () => ({ auth: { kind: 'session' } as RouteAuth });
export const adminRoute = () => ({ auth: { kind: 'admin' } as RouteAuth });
export const publicRoute = () => ({ auth: { kind: 'public' } as RouteAuth });

/** The caller of a guarded route; the guard has already run, so absence is a bug. */
export function callerOf(request: { caller?: Caller }): Caller {
  if (!request.caller) throw new Error('route has no caller: is its auth declared?');
  return request.caller;
}
