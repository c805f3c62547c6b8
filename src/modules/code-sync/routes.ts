// Code sync routes (scope `macros:run`): read a code macro's current snapshot, upload a new one.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../http/request-context.js';
import { keyRoute, sessionRoute } from '../../http/route-auth.js';
import { errors, IdParams } from '../../core/schema.js';
import { CodeState, CodeSummary, SnapshotAnswer, SnapshotBody } from './schemas.js';
import { SNAPSHOT_LIMITS } from './limits.js';
import type { CodeSyncService } from './service.js';

export function codeSyncRoutes(codeSync: CodeSyncService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['code-sync'];
    app.get(
      '/api/macros/:id/code-state',
      {
        config: keyRoute('macros:run'),
        schema: {
          operationId: 'getCodeState',
          tags,
          summary: "Read a code macro's current snapshot",
          description: "The code macro's current snapshot: its worktree hash, entry file, size, file count and when it was uploaded, so a client can tell whether its copy is up to date. 404 `code_not_synced` when the macro never synced; 404 `not_found` for a block macro or one that is not yours.",
          params: IdParams,
          response: { 200: CodeState, ...errors(404, 422) },
        },
      },
      async (request) => codeSync.state(contextOf(request), request.params),
    );
    app.get(
      '/api/macros/:id/code-summary',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getCodeSummary',
          tags,
          summary: "A code macro's current snapshot, or that it has none (the console's)",
          description:
            'Our extension for the console (docs/code-sync.md): what GET /api/macros/{id}/code-state answers, as `state`, with `synced: false` and `state: null` for a macro that never synced instead of a 404, which a browser would log as an error on every visit of a new macro. Session only; 404 `not_found` for a block macro or one that is not yours.',
          params: IdParams,
          response: { 200: CodeSummary, ...errors(401, 404, 422) },
        },
      },
      async (request) => codeSync.summary(contextOf(request), request.params),
    );
    app.post(
      '/api/macros/:id/code-snapshot',
      {
        config: keyRoute('macros:run'),
        bodyLimit: SNAPSHOT_LIMITS.maxBodyBytes,
        schema: {
          operationId: 'uploadCodeSnapshot',
          tags,
          summary: "Upload a code macro's project as a zip; it becomes the current snapshot",
          description:
            "Uploads a code macro's project as a base64 zip, checks it and makes it the current snapshot. The body may be up to 16 MiB (413 beyond), the zip up to 10 MiB decoded. The server recomputes `worktree_hash` (docs/code-sync.md) and refuses a mismatch. " +
            'A zip with absolute or `..` paths, links or device files, duplicate paths, more than 5,000 files or more than 100 MiB uncompressed is refused; every refusal is 422 ' +
            '`validation_failed` with `details.reason` and changes nothing. 201 when the snapshot is new; 200 with `created: false` when the macro already had this hash, which is made current again.',
          params: IdParams,
          body: SnapshotBody,
          response: { 200: SnapshotAnswer, 201: SnapshotAnswer, ...errors(400, 404, 409, 413, 422) },
        },
      },
      async (request, reply) => {
        const answer = await codeSync.upload(contextOf(request), { ...request.params, ...request.body });
        return reply.code(answer.created ? 201 : 200).send(answer);
      },
    );
  };
}
