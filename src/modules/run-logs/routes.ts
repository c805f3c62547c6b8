// Run logs for keys with `runs:read`. The path carries the string execution_id; the
// numeric-id route /api/executions/:id sits one level up, so the two never collide.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../http/request-context.js';
import { keyRoute } from '../../http/route-auth.js';
import { errors } from '../../core/schema.js';
import { RunLog, RunLogParams, RunLogQuery } from './schemas.js';
import type { RunLogService } from './service.js';

export function runLogRoutes(logs: RunLogService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/executions/:execution_id/logs',
      {
        config: keyRoute('runs:read'),
        schema: {
          operationId: 'getExecutionLogs',
          tags: ['runs'],
          summary: "Read a run's logs with a cursor",
          description: "A window of a run's log lines, oldest first: the newest `max_lines`, or the lines after the `since_seq` cursor. Pass `last_seq` back as `since_seq` to read only new lines. Logs are shipped only from cloud runs; a local run answers no lines and last_seq 0.",
          params: RunLogParams,
          querystring: RunLogQuery,
          response: { 200: RunLog, ...errors(404, 422) },
        },
      },
      async (request) => logs.read(contextOf(request), { ...request.params, ...request.query }),
    );
  };
}
