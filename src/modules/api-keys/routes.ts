// Key management (session only) and `GET /api/whoami` (any key), which lets a script or AI
// client check the key it holds.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../http/request-context.js';
import { keyRoute, sessionRoute } from '../../http/route-auth.js';
import { errors, IdParams } from '../../core/schema.js';
import type { ResolvedKey } from './key-resolver.js';
import { ApiKey, CreatedKey, CreateKeyBody, KeyList, WhoAmI } from './schemas.js';
import type { ApiKeyService } from './service.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ResolvedKey;
  }
}

export function apiKeyRoutes(keys: ApiKeyService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/api/api-keys',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'createApiKey',
          description: 'Creates an API key with a name, an expiry (30 days, 90 days, 1 year or never) and scopes (none = full access). The whole key is in this answer only; the service keeps a hash. 402 without an active subscription or trial; 422 `key_limit_reached` when 25 keys are active.',
          tags: ['api-keys'],
          summary: 'Create an API key; the whole key is returned once',
          body: CreateKeyBody,
          response: { 201: CreatedKey, ...errors(400, 401, 402, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await keys.create(contextOf(request), request.body)),
    );

    app.get(
      '/api/api-keys',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'listApiKeys',
          description: 'Every key of the signed-in user, newest first, in every state (`Active`, `Revoked`, `Expired`), with its prefix, scopes, expiry and last use. The secret itself is never shown again.',
          tags: ['api-keys'],
          summary: 'List every key, newest first',
          response: { 200: KeyList, ...errors(401) },
        },
      },
      async (request) => keys.list(contextOf(request)),
    );

    app.delete(
      '/api/api-keys/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'revokeApiKey',
          description: 'Revokes a key at once in every process: its next request answers 401. Revoking a revoked key answers the same record; the slot it held is freed.',
          tags: ['api-keys'],
          summary: 'Revoke a key, at once and everywhere',
          params: IdParams,
          response: { 200: ApiKey, ...errors(401, 404, 422) },
        },
      },
      async (request) => keys.revoke(contextOf(request), request.params),
    );

    app.get(
      '/api/whoami',
      {
        config: keyRoute(null, { keyOnly: true }),
        schema: {
          operationId: 'getWhoAmI',
          description: 'Lets a script or AI client check the key it holds: the key (id, name, prefix, scopes, expiry) and the email of the account it acts for.',
          tags: ['api-keys'],
          summary: 'The key in use and its owner',
          response: { 200: WhoAmI, ...errors(401, 402, 429) },
        },
      },
      async (request) => {
        const key = request.apiKey;
        if (!key) throw new Error('whoami reached without a resolved key');
        return {
          user: { id: key.userId, email: key.userEmail },
          api_key: { id: key.id, name: key.name, prefix: key.prefix, scopes: key.scopes, expires_at: key.expiresAtIso },
        };
      },
    );
  };
}
