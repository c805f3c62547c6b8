// Applies each route's declared guard, and refuses at start-up any /api or /admin route
// that forgot to declare one. The OpenAPI security of a route is derived here too. The
// guards themselves belong to the modules that own keys, sessions and the operator's
// token; they arrive here as dependencies, so this layer imports no module.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Scope } from '../../core/context.js';
import type { RouteAuth } from '../route-auth.js';

/** Checks one request; throws an AppError (401, 404, …) to refuse it, sets `request.caller` to admit it. */
export type RequestGuard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** The key gate (http/guards/api-key.ts): 401, 429, 402 and 403, in the contract's order. */
export interface KeyGate {
  check(request: FastifyRequest, reply: FastifyReply, required: Scope | 'full' | null): Promise<void>;
}

export interface GuardDeps {
  keyGate: KeyGate;
  session: RequestGuard;
  admin: RequestGuard;
}

const ERROR_REF = { $ref: 'Error#' };

function describe(route: RouteOptions, auth: RouteAuth): void {
  const schema = (route.schema ??= {}) as Record<string, unknown>;
  const response = (schema.response ??= {}) as Record<string, unknown>;
  const addErrors = (...statuses: number[]) => {
    for (const status of statuses) response[status] ??= ERROR_REF;
  };
  switch (auth.kind) {
    case 'apiKey': {
      schema.security = [{ apiKey: [] }];
      const scopes = auth.scope === null ? [] : auth.scope === 'full' ? ['(full access)'] : [auth.scope];
      schema['x-required-scopes'] = auth.scope === null || auth.scope === 'full' ? [] : [auth.scope];
      schema['x-full-access-only'] = auth.scope === 'full';
      const note =
        auth.scope === null ? 'Any valid API key.' : auth.scope === 'full' ? 'Full-access keys only (keys created with no scopes).' : `Required scope: \`${scopes[0]}\`.`;
      schema.description = [schema.description, `**Auth:** API key (\`X-API-KEY\`). ${note}`].filter(Boolean).join('\n\n');
      addErrors(401, 402, 429, ...(auth.scope === null ? [] : [403]));
      break;
    }
    case 'session':
      schema.security = [{ session: [] }];
      schema.description = [schema.description, '**Auth:** the application\'s signed-in session. API keys are refused.'].filter(Boolean).join('\n\n');
      addErrors(401);
      break;
    case 'admin':
      schema.security = [{ admin: [] }];
      schema.description = [schema.description, '**Auth:** operator (`Authorization: Bearer <ADMIN_TOKEN>`). Answers 404 unless the server has ADMIN_TOKEN set.'].filter(Boolean).join('\n\n');
      addErrors(401, 404);
      break;
    case 'public':
      schema.security = [];
      break;
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

export function installGuards(app: FastifyInstance, deps: GuardDeps): void {
  const catalog: CatalogEntry[] = [];
  app.decorate('routeCatalog', catalog);
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (auth) {
      for (const method of [route.method].flat()) catalog.push({ method, url: route.url, auth });
    }
    if (!auth) {
      if (/^\/(api|admin|mcp)(\/|$)/.test(route.url)) throw new Error(`Route ${route.method} ${route.url} declares no auth in its config`);
      return;
    }
    describe(route, auth);
  });

  app.addHook('onRequest', async (request, reply) => {
    const auth = request.routeOptions.config?.auth;
    if (!auth) return;
    switch (auth.kind) {
      case 'apiKey':
        return deps.keyGate.check(request, reply, auth.scope);
      case 'session':
        return deps.session(request, reply);
      case 'admin':
        return deps.admin(request, reply);
      case 'public':
        return;
    }
  });
}
