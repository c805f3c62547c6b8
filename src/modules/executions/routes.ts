// Run history for keys with `runs:read`, and execution reporting for the application.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../http/request-context.js';
import { keyRoute, sessionRoute } from '../../http/route-auth.js';
import { errors } from '../../core/schema.js';
import type { ExecutionReporter } from './report.js';
import { ReportBody, Run, RunIdParams, RunListQuery, RunPage } from './schemas.js';
import type { RunHistoryService } from './service.js';

export function executionRoutes(history: RunHistoryService, reporter: ExecutionReporter): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['runs'];
    app.post(
      '/api/executions/report',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'reportExecution',
          tags,
          summary: 'Report a run: the first report creates it, a later one ends it',
          description:
            'The application reports a run on a local device, so run history, events and webhooks cover it too. `running` may move to `completed`, `failed` or `stopped`; an ended run cannot change again (409 `run_already_ended`). ' +
            'Creating a run emits `macro.started`, ending it `macro.completed`, `macro.failed` or `macro.stopped`; a first report that has already ended emits both.',
          body: ReportBody,
          response: { 200: Run, ...errors(400, 404, 409, 422) },
        },
      },
      async (request) => reporter.report(contextOf(request), request.body),
    );
    app.get(
      '/api/executions',
      {
        config: keyRoute('runs:read'),
        schema: {
          operationId: 'listExecutions',
          description: "A page of the caller's runs, newest first, filtered by status, device, macro and start time (`since`, `until`).",
          tags,
          summary: 'List runs, newest first',
          querystring: RunListQuery,
          response: { 200: RunPage, ...errors(422) },
        },
      },
      async (request) => history.list(contextOf(request), request.query),
    );
    app.get(
      '/api/executions/:id',
      {
        config: keyRoute('runs:read'),
        schema: {
          operationId: 'getExecution',
          description: 'One run of the caller by its numeric id: its status, macro, device, times, duration, exit code and error, and the proxy it went out through.',
          tags,
          summary: 'Read a run by its numeric id',
          params: RunIdParams,
          response: { 200: Run, ...errors(404, 422) },
        },
      },
      async (request) => history.get(contextOf(request), request.params),
    );
  };
}
