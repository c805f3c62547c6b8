// The operator grants managed proxies to an account and takes them away.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { originOf } from '../../http/request-context.js';
import { adminRoute } from '../../http/route-auth.js';
import { errors, IdParams } from '../../core/schema.js';
import type { ProxyService } from './proxy-service.js';
import { ManagedProxyBody, Proxy } from './schemas.js';

export function adminProxyRoutes(proxies: ProxyService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/admin/users/:id/proxies',
      {
        config: adminRoute(),
        schema: {
          operationId: 'grantManagedProxy',
          description: "Adds a managed proxy to a user's account: the user sees and assigns it like their own but cannot change or delete it.",
          tags: ['admin'],
          summary: 'Grant a managed proxy to a user',
          params: IdParams,
          body: ManagedProxyBody,
          response: { 201: Proxy, ...errors(400, 404, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await proxies.grantManaged(originOf(request), { ...request.params, ...request.body })),
    );
    app.delete(
      '/admin/proxies/:id',
      {
        config: adminRoute(),
        schema: {
          operationId: 'removeManagedProxy',
          description: "Deletes a managed proxy and ends every assignment that uses it. Only managed proxies can be removed here; a user's own proxy answers 404.",
          tags: ['admin'],
          summary: 'Remove a managed proxy (ends its assignments)',
          params: IdParams,
          response: { 204: { type: 'null' }, ...errors(404, 422) },
        },
      },
      async (request, reply) => {
        await proxies.removeManaged(originOf(request), request.params);
        return reply.code(204).send(null);
      },
    );
  };
}
