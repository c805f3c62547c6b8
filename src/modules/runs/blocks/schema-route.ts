// Publishes the block program's JSON Schema at `/schemas/block-program.json`, for editors and
// clients that check a program before sending it. No authentication: it is documentation.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { publicRoute } from '../../../http/route-auth.js';
import { blockProgramSchema, SCHEMA_PATH } from './program-schema.js';

export function blockSchemaRoutes(baseUrl: string): FastifyPluginAsyncTypebox {
  // Sent as bytes: a Buffer skips the response serializer, which would keep only the properties it knows.
  const body = Buffer.from(JSON.stringify(blockProgramSchema(baseUrl), null, 2));
  return async (app) => {
    app.get(
      SCHEMA_PATH,
      {
        config: publicRoute(),
        schema: {
          operationId: 'getBlockProgramSchema',
          tags: ['macros'],
          summary: 'The JSON Schema (draft 2020-12) of a block program',
          description: 'What `blocks` of a block macro must be: `{"version": 1, "steps": [...]}`, every step kind with its fields.',
          response: { 200: { description: 'A JSON Schema document', content: { 'application/schema+json': { schema: { type: 'object' } } } } },
        },
      },
      async (_request, reply) => reply.type('application/schema+json').header('cache-control', 'public, max-age=3600').send(body),
    );
  };
}
