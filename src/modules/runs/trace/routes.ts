// The run-trace routes (app-api.md "Run traces", decisions.md §17): key routes with
// `runs:read`, and the owner's session. A frame never changes once stored (its id names its
// pixels), so it is cached for good; the HTML page is the whole trace in one file.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { errors } from '../../../core/schema.js';
import { contextOf } from '../../../http/request-context.js';
import { keyRoute } from '../../../http/route-auth.js';
import { FrameParams, RunTrace, TraceParams } from './schemas.js';
import type { TraceService } from './service.js';

const JPEG = { description: 'The frame as JPEG (longest edge 720 px, quality 70)', content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } } };
const HTML = { description: 'One self-contained HTML page', content: { 'text/html': { schema: { type: 'string' } } } };
const NOT_FOUND = "404 `not_found` for a run that is not yours (or does not exist); 404 `trace_not_found` for your run when it has no trace (RUN_TRACE off, or `failures` and the run finished; expired after RUN_TRACE_DAYS; a local run).";

export function traceRoutes(traces: TraceService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/executions/:execution_id/trace',
      {
        config: keyRoute('runs:read'),
        schema: {
          operationId: 'getExecutionTrace',
          tags: ['runs'],
          summary: "Read a run's trace",
          description: `Every device action of a cloud run in order (decisions.md §17): what it was called with, the element it acted on, its outcome and error, and the frames (screens) before and after it. A failed run adds \`failed_step\`, \`final_frame\` and \`final_ui_tree\`. Readable while the run goes on (the steps so far). ${NOT_FOUND}`,
          params: TraceParams,
          response: { 200: RunTrace, ...errors(404, 422) },
        },
      },
      async (request) => traces.get(contextOf(request), request.params),
    );
    app.get(
      '/api/executions/:execution_id/trace/frames/:frame_id',
      {
        config: keyRoute('runs:read'),
        schema: {
          operationId: 'getExecutionTraceFrame',
          tags: ['runs'],
          summary: 'Read one frame of a run trace',
          description: `A frame a step names (\`frame_before\`, \`frame_after\`, \`final_frame\`), as JPEG. Immutable: \`ETag\` is the frame id and \`Cache-Control: private, max-age=31536000, immutable\`; \`If-None-Match\` answers 304. ${NOT_FOUND} A frame id the trace does not hold: 404 \`not_found\`.`,
          params: FrameParams,
          response: { 200: JPEG, ...errors(404, 422) },
        },
      },
      async (request, reply) => {
        const etag = `"${request.params.frame_id}"`;
        const jpeg = await traces.frame(contextOf(request), request.params);
        reply.header('etag', etag).header('cache-control', 'private, max-age=31536000, immutable');
        // 304 is not a response the schema describes (it has no body), so the reply is untyped here.
        if (request.headers['if-none-match'] === etag) return (reply as FastifyReply).code(304).send();
        return reply.type('image/jpeg').send(jpeg);
      },
    );
    app.get(
      '/api/executions/:execution_id/trace.html',
      {
        config: keyRoute('runs:read'),
        schema: {
          operationId: 'getExecutionTraceHtml',
          tags: ['runs'],
          summary: 'Download a run trace as one HTML page',
          description: `The trace as one self-contained HTML file to keep or send: the timeline, a filmstrip and each step's details, every frame inline as a data: URI, script and style inline; opened anywhere, even offline, it makes no request (its Content-Security-Policy allows none). ${NOT_FOUND}`,
          params: TraceParams,
          response: { 200: HTML, ...errors(404, 422) },
        },
      },
      async (request, reply) => {
        const html = await traces.html(contextOf(request), request.params);
        return reply
          .type('text/html; charset=utf-8')
          .header('content-disposition', `inline; filename="trace-${request.params.execution_id}.html"`)
          .send(html);
      },
    );
  };
}
