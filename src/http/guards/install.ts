// Applies each route's declared guard, and refuses at start-up any /api or /admin route
// that forgot to declare one. The OpenAPI security of a route is derived here too.
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { RouteAuth } from '../route-auth.js';
import { checkAdmin } from './admin.js';
import type { ApiKeyGate } from './api-key.js';
import { checkSession } from './session.js';

export interface GuardDeps {
  gate: ApiKeyGate;
  db: Kysely<Database>;
  clock: Clock;
  adminToken: string | undefined;
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
    if (!auth) {
      if (/^\/(api|admin|mcp)(\/|$)/.test(route.url)) throw new Error(`Route ${route.method} ${route.url} declares no auth in its config`);
      return;
    }
    // The HEAD twin Fastify adds for each GET (exposeHeadRoutes) shares the GET's config and
    // schema, so the same guard applies; the GET is already in the catalog and described.
    if (route.method === 'HEAD') return;
    for (const method of [route.method].flat()) catalog.push({ method, url: route.url, auth });
    describe(route, auth);
  });

  app.addHook('onRequest', async (request, reply) => {
    const auth = request.routeOptions.config?.auth;
    if (!auth) return;
    switch (auth.kind) {
      case 'apiKey':
        return deps.gate.check(request, reply, auth.scope);
      case 'session':
        return checkSession(request, deps.db, deps.clock);
      case 'admin':
        return checkAdmin(request, deps.adminToken);
      case 'public':
        return;
    }
  });
}
