// The authoring routes (app-api.md "Authoring-agent sessions"): session only; tool clients use
// the authoring tools. Without a model endpoint every route answers 503 `authoring_unavailable`.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, IdParams } from '../../core/schema.js';
import { contextOf } from '../../http/request-context.js';
import { sessionRoute } from '../../http/route-auth.js';
import { AnswerBody, AuthoringSession, AuthoringSessionPage, MessagesAnswer, MessagesQuery, SessionListQuery, StartSessionBody } from './schemas.js';
import type { AuthoringSessionService } from './service.js';

export function authoringRoutes(sessions: AuthoringSessionService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['authoring'];
    // After the session guard (onRequest), before validation: a server without a model says so first.
    app.addHook('preValidation', async () => sessions.ensureAvailable());
    app.post(
      '/api/authoring/sessions',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'startAuthoringSession',
          summary: 'Start an authoring-agent session',
          description:
            'Starts the agent on a goal: it looks at the cloud device (if given), writes a Python project, runs it as real cloud runs, fixes it and finishes with files ready to install. Without `macro_id` a new code macro named after the goal is created; with one, the agent starts from its current code. Spends AI credits (one per 1,000 tokens).',
          tags,
          body: StartSessionBody,
          response: { 201: AuthoringSession, ...errors(400, 402, 404, 422, 503) },
        },
      },
      async (request, reply) => reply.code(201).send(await sessions.start(contextOf(request), request.body)),
    );
    app.get(
      '/api/authoring/sessions',
      {
        config: sessionRoute(),
        schema: { operationId: 'listAuthoringSessions', summary: 'List authoring sessions', description: 'The signed-in user\'s sessions, newest first.', tags, querystring: SessionListQuery, response: { 200: AuthoringSessionPage, ...errors(422, 503) } },
      },
      async (request) => sessions.list(contextOf(request), request.query),
    );
    app.get(
      '/api/authoring/sessions/:id',
      {
        config: sessionRoute(),
        schema: { operationId: 'getAuthoringSession', summary: 'Read an authoring session', description: 'One session; someone else\'s answers 404.', tags, params: IdParams, response: { 200: AuthoringSession, ...errors(404, 422, 503) } },
      },
      async (request) => sessions.get(contextOf(request), request.params),
    );
    app.get(
      '/api/authoring/sessions/:id/messages',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'readAuthoringMessages',
          summary: "Read a session's messages with a cursor",
          description: 'The messages after `cursor` (at most 200), oldest first, and the cursor to pass next time. Readable while the session runs. `state` is read before the messages, so an ended state means every message is in.',
          tags,
          params: IdParams,
          querystring: MessagesQuery,
          response: { 200: MessagesAnswer, ...errors(404, 422, 503) },
        },
      },
      async (request) => {
        const { messages, cursor, state } = await sessions.messages(contextOf(request), { ...request.params, ...request.query });
        return { messages, cursor, state };
      },
    );
    app.post(
      '/api/authoring/sessions/:id/answer',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'answerAuthoringSession',
          summary: "Answer the agent's question",
          description: 'Gives the answer to the question the session asks; the session goes back to working. 409 `not_waiting` unless it is waiting_for_answer.',
          tags,
          params: IdParams,
          body: AnswerBody,
          response: { 200: AuthoringSession, ...errors(400, 404, 409, 422, 503) },
        },
      },
      async (request) => sessions.answer(contextOf(request), { ...request.params, ...request.body }),
    );
    app.post(
      '/api/authoring/sessions/:id/stop',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'stopAuthoringSession',
          summary: 'Stop an authoring session',
          description: 'Ends a working or waiting session `stopped` at once (a run it started is stopped, its device lease ends). An ended session answers as it is.',
          tags,
          params: IdParams,
          response: { 200: AuthoringSession, ...errors(404, 422, 503) },
        },
      },
      async (request) => sessions.stop(contextOf(request), request.params),
    );
  };
}
