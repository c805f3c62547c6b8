// Macro management: application (session) routes only; keys never create or change macros.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../http/request-context.js';
import { sessionRoute } from '../../http/route-auth.js';
import { errors, IdParams } from '../../core/schema.js';
import { CreateMacroBody, Macro, MacroListQuery, MacroPage, UpdateMacroBody } from './schemas.js';
import type { MacroService } from './service.js';

export function macroRoutes(macros: MacroService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['macros'];
    app.post(
      '/api/macros',
      { config: sessionRoute(), schema: { tags, summary: 'Create a macro', body: CreateMacroBody, response: { 201: Macro, ...errors(400, 422) } } },
      async (request, reply) => reply.code(201).send(await macros.create(contextOf(request), request.body)),
    );
    app.get(
      '/api/macros',
      { config: sessionRoute(), schema: { tags, summary: 'List macros by name', querystring: MacroListQuery, response: { 200: MacroPage, ...errors(422) } } },
      async (request) => macros.list(contextOf(request), request.query),
    );
    app.get(
      '/api/macros/:id',
      { config: sessionRoute(), schema: { tags, summary: 'Read a macro', params: IdParams, response: { 200: Macro, ...errors(404, 422) } } },
      async (request) => macros.get(contextOf(request), request.params),
    );
    app.put(
      '/api/macros/:id',
      { config: sessionRoute(), schema: { tags, summary: 'Change a macro', params: IdParams, body: UpdateMacroBody, response: { 200: Macro, ...errors(400, 404, 422) } } },
      async (request) => macros.update(contextOf(request), { ...request.params, ...request.body }),
    );
    app.delete(
      '/api/macros/:id',
      {
        config: sessionRoute(),
        schema: { tags, summary: 'Delete a macro, its profiles and code snapshots; run history stays', params: IdParams, response: { 204: { type: 'null' }, ...errors(404, 422) } },
      },
      async (request, reply) => {
        await macros.remove(contextOf(request), request.params);
        return reply.code(204).send(null);
      },
    );
  };
}
