// Applies each route's declared guard, and refuses at start-up any /api or /admin route
// that forgot to declare one, or a documented route without an operationId and a
// description. The OpenAPI security and error statuses of a route are derived here too. The
// guards themselves belong to the modules that own keys, sessions and the operator's
// token; they arrive here as dependencies, so this layer imports no module.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Scope } from '../../core/context.js';
import type { IdempotencyStore } from '../../core/idempotency.js';
import { derivedStatuses, type RouteShape, statusMeaning } from '../documented-statuses.js';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_HEADER_SCHEMA, type IdempotencyHooks, idempotencyHooks } from '../idempotency.js';
import { isIdempotentRoute, type RouteAuth } from '../route-auth.js';

/** Checks one request; throws an AppError (401, 404, …) to refuse it, sets `request.caller` to admit it. */
export type RequestGuard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** The key gate (modules/api-keys/gate.ts, injected): 401, 429, 402 and 403, in the contract's order. */
export interface KeyGate {
  check(request: FastifyRequest, reply: FastifyReply, required: Scope | 'full' | null): Promise<void>;
}

export interface GuardDeps {
  keyGate: KeyGate;
  session: RequestGuard;
  /** Whether the request carries a session credential (a `sess_` bearer token or the cookie) and no key. */
  presentsSession: (request: FastifyRequest) => boolean;
  admin: RequestGuard;
  /** The tool server's guard (modules/mcp): a key or a token, through the key gate. */
  toolClient: RequestGuard;
  /** Claims and kept answers of `Idempotency-Key` (modules/idempotency), for every key route with POST. */
  idempotency: IdempotencyStore;
}

const ERROR_REF = { $ref: 'Error#' };

/** An error status answered with the envelope (a route may declare something else). */
const isEnvelope = (status: string, schema: unknown) =>
  /^[45]\d\d$/.test(status) && ['Error', 'Error#'].includes(String((schema as { $ref?: unknown } | undefined)?.$ref));

/**
 * The OpenAPI side of a route, derived from its guard, method and schema: security, the auth
 * note, and every error status it can answer with what it means. Runs once per route (the
 * HEAD twin of a GET shares its schema and is skipped by the caller).
 */
function describe(route: RouteOptions, auth: RouteAuth): void {
  const schema = route.schema as Record<string, unknown>;
  const response = (schema.response ??= {}) as Record<string, unknown>;
  const method = [route.method].flat()[0] ?? 'GET';
  const shape = { method, url: route.url, schema: schema as RouteShape['schema'], auth, bodyLimit: route.bodyLimit };
  if (isIdempotentRoute(method, auth)) {
    const headers = (schema.headers ??= { type: 'object', properties: {} }) as { properties: Record<string, unknown> };
    headers.properties[IDEMPOTENCY_HEADER] = IDEMPOTENCY_HEADER_SCHEMA;
    schema.description = [
      schema.description,
      `**Idempotency:** send \`${IDEMPOTENCY_HEADER}\` to make a retry safe (decisions.md §19): a success is kept 24 h and answered again with \`Idempotent-Replayed: true\`; 409 \`idempotency_key_in_use\` (with \`Retry-After: 1\`) while the first request with the key is still processed, 422 \`idempotency_key_reused\` when the key was used with another method, path or body.`,
    ].filter(Boolean).join('\n\n');
  }
  for (const status of derivedStatuses(shape)) response[status] ??= ERROR_REF;
  // Every error response says what the status means here (the route's own description
  // names the route-specific codes).
  for (const status of Object.keys(response)) {
    if (isEnvelope(status, response[status])) response[status] = { $ref: 'Error#', description: statusMeaning(Number(status), shape) };
  }
  switch (auth.kind) {
    case 'apiKey': {
      schema.security = auth.keyOnly ? [{ apiKey: [] }] : [{ apiKey: [] }, { session: [] }];
      const scopes = auth.scope === null ? [] : auth.scope === 'full' ? ['(full access)'] : [auth.scope];
      schema['x-required-scopes'] = auth.scope === null || auth.scope === 'full' ? [] : [auth.scope];
      schema['x-full-access-only'] = auth.scope === 'full';
      const note =
        auth.scope === null ? 'Any valid API key.' : auth.scope === 'full' ? 'Full-access keys only (keys created with no scopes).' : `Required scope: \`${scopes[0]}\`.`;
      const session = auth.keyOnly ? '' : " The owner's signed-in session (the application) is accepted too, with full access.";
      schema.description = [schema.description, `**Auth:** API key (\`X-API-KEY\`). ${note}${session}`].filter(Boolean).join('\n\n');
      break;
    }
    case 'toolClient':
      schema.security = [{ apiKey: [] }, { toolClient: [] }];
      schema.description = [schema.description, '**Auth:** API key (`X-API-KEY` or `Authorization: Bearer <key>`) or a tool-server token (`Authorization: Bearer <token>`). Each tool checks its own scope.'].filter(Boolean).join('\n\n');
      break;
    case 'session':
      schema.security = [{ session: [] }];
      schema.description = [schema.description, '**Auth:** the application\'s signed-in session. API keys are refused.'].filter(Boolean).join('\n\n');
      break;
    case 'admin':
      schema.security = [{ admin: [] }];
      schema.description = [schema.description, '**Auth:** operator (`Authorization: Bearer <ADMIN_TOKEN>`). Answers 404 unless the server has ADMIN_TOKEN set.'].filter(Boolean).join('\n\n');
      break;
    case 'public':
      schema.security = [];
      break;
  }
}

/**
 * A documented route must be findable and explained: an operationId unique in the document
 * (clients generated from it name their functions after it) and a description of its own.
 */
function requireDocumentation(route: RouteOptions, operationIds: Set<string>): void {
  const schema = route.schema as { operationId?: unknown; description?: unknown; hide?: unknown } | undefined;
  if (schema?.hide === true) return;
  const name = `Route ${[route.method].flat().join(',')} ${route.url}`;
  if (typeof schema?.operationId !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(schema.operationId)) {
    throw new Error(`${name} declares no camelCase operationId in its schema`);
  }
  if (operationIds.has(schema.operationId)) throw new Error(`${name} reuses the operationId ${schema.operationId}`);
  operationIds.add(schema.operationId);
  if (typeof schema.description !== 'string' || schema.description.trim().length < 20) {
    throw new Error(`${name} declares no description in its schema (a sentence or two on what it does)`);
  }
}

export interface CatalogEntry {
  method: string;
  url: string;
  auth: RouteAuth;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every guarded route, for the shared test that walks them all. */
    routeCatalog: CatalogEntry[];
  }
}

/** Adds the idempotency hooks to a route: the header check before any of the route's own, the rest after. */
function attachIdempotency(route: RouteOptions, hooks: IdempotencyHooks): void {
  const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : [value].flat() as T[]);
  route.preValidation = [hooks.preValidation, ...list(route.preValidation)] as RouteOptions['preValidation'];
  route.preHandler = [hooks.preHandler, ...list(route.preHandler)] as RouteOptions['preHandler'];
  route.onSend = [...list(route.onSend), hooks.onSend] as RouteOptions['onSend'];
  route.onResponse = [...list(route.onResponse), hooks.onResponse] as RouteOptions['onResponse'];
}

export function installGuards(app: FastifyInstance, deps: GuardDeps): void {
  const catalog: CatalogEntry[] = [];
  const idempotency = idempotencyHooks(deps.idempotency);
  const operationIds = new Set<string>();
  app.decorate('routeCatalog', catalog);
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (!auth) {
      if (/^\/(api|admin|mcp)(\/|$)/.test(route.url)) throw new Error(`Route ${route.method} ${route.url} declares no auth in its config`);
      return;
    }
    // Fastify's automatic HEAD twin of a GET shares the GET's schema, already described, and
    // @fastify/swagger leaves HEAD routes out of the document: the GET documents both.
    if (route.method === 'HEAD') return;
    for (const method of [route.method].flat()) catalog.push({ method, url: route.url, auth });
    if ([route.method].flat().some((method) => isIdempotentRoute(method, auth))) attachIdempotency(route, idempotency);
    route.schema ??= {};
    requireDocumentation(route, operationIds);
    describe(route, auth);
  });

  app.addHook('onRequest', async (request, reply) => {
    const auth = request.routeOptions.config?.auth;
    if (!auth) return;
    switch (auth.kind) {
      case 'apiKey':
        // The signed-in application reads and writes the same resources as its owner's keys
        // (run history, webhooks, proxies…): a session is the owner with full access, outside
        // the per-key limits and the key's subscription check (docs/decisions/0006).
        if (!auth.keyOnly && deps.presentsSession(request)) return deps.session(request, reply);
        return deps.keyGate.check(request, reply, auth.scope);
      case 'toolClient':
        return deps.toolClient(request, reply);
      case 'session':
        return deps.session(request, reply);
      case 'admin':
        return deps.admin(request, reply);
      case 'public':
        return;
    }
  });
}
