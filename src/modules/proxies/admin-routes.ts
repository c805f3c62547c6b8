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
      { config: adminRoute(), schema: { tags: ['admin'], summary: 'Grant a managed proxy to a user', params: IdParams, body: ManagedProxyBody, response: { 201: Proxy, ...errors(400, 404, 422) } } },
      async (request, reply) => reply.code(201).send(await proxies.grantManaged(originOf(request), { ...request.params, ...request.body })),
    );
    app.delete(
      '/admin/proxies/:id',
      { config: adminRoute(), schema: { tags: ['admin'], summary: 'Remove a managed proxy (ends its assignments)', params: IdParams, response: { 204: { type: 'null' }, ...errors(404, 422) } } },
      async (request, reply) => {
        await proxies.removeManaged(originOf(request), request.params);
        return reply.code(204).send(null);
      },
    );
  };
}
