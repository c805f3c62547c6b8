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
      {
        config: sessionRoute(),
        schema: {
          operationId: 'createMacro',
          description: 'Creates a macro: `python` (a code macro, whose code arrives by code sync) or `block` (a block program stored with the macro).',
          tags,
          summary: 'Create a macro',
          body: CreateMacroBody,
          response: { 201: Macro, ...errors(400, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await macros.create(contextOf(request), request.body)),
    );
    app.get(
      '/api/macros',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'listMacros',
          description: "A page of the signed-in user's macros, ordered by name, optionally filtered by a case-insensitive substring of the name.",
          tags,
          summary: 'List macros by name',
          querystring: MacroListQuery,
          response: { 200: MacroPage, ...errors(422) },
        },
      },
      async (request) => macros.list(contextOf(request), request.query),
    );
    app.get(
      '/api/macros/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getMacro',
          description: "One of the signed-in user's macros, with its block program for a block macro. Someone else's macro answers 404.",
          tags,
          summary: 'Read a macro',
          params: IdParams,
          response: { 200: Macro, ...errors(404, 422) },
        },
      },
      async (request) => macros.get(contextOf(request), request.params),
    );
    app.put(
      '/api/macros/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'updateMacro',
          description: "Changes a macro's name, description or block program; fields left out keep their value. The kind cannot change.",
          tags,
          summary: 'Change a macro',
          params: IdParams,
          body: UpdateMacroBody,
          response: { 200: Macro, ...errors(400, 404, 422) },
        },
      },
      async (request) => macros.update(contextOf(request), { ...request.params, ...request.body }),
    );
    app.delete(
      '/api/macros/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'deleteMacro',
          description: 'Deletes a macro together with its settings profiles and code snapshots; devices that followed it follow nothing. Run history keeps its records.',
          tags,
          summary: 'Delete a macro, its profiles and code snapshots; run history stays',
          params: IdParams,
          response: { 204: { type: 'null' }, ...errors(404, 422) },
        },
      },
      async (request, reply) => {
        await macros.remove(contextOf(request), request.params);
        return reply.code(204).send(null);
      },
    );
  };
}
