// `/mcp`: the tool server over Streamable HTTP, stateless with JSON responses (no sessions,
// no server-sent events), so GET (the event stream) and DELETE (ending a session) answer 405.
// Fastify parses and guards the request as any other; the SDK's web-standard transport
// answers it, and its answer goes back through Fastify, so logging, metrics and the
// rate-limit headers the gate set stay on the response.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ErrorRef } from '../../core/schema.js';
import { contextOf } from '../../http/request-context.js';
import { toolClientRoute } from '../../http/route-auth.js';
import type { ApiKeyGate } from '../api-keys/index.js';
import { MCP_PATH } from './oauth/routes.js';
import { invalidParams, invalidRequest } from './protocol-errors.js';
import { malformedToolCall, parseToolServerBodies, RefusedToolCall } from './refused-calls.js';
import { serverFor } from './server.js';
import type { ToolCatalog } from './tool-catalog.js';

/** Request headers the SDK transport reads; credentials are not passed on. */
const PASSED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id', 'host', 'origin'];

/**
 * The SDK insists that a client accept both JSON and an event stream, although this server
 * only ever answers JSON. A client that accepts JSON (or says nothing, or `*\/*`: curl, a
 * script) is answered rather than refused with 406; one that accepts neither still gets 406.
 */
function acceptForSdk(accept: string | undefined): string | undefined {
  if (accept === undefined || accept.trim() === '' || /(^|,)\s*(\*\/\*|application\/\*|application\/json)\s*(;|,|$)/i.test(accept)) return 'application/json, text/event-stream';
  return accept;
}

function webRequest(request: FastifyRequest, baseUrl: string): Request {
  const headers = new Headers();
  for (const name of PASSED_HEADERS) {
    const value = name === 'accept' ? acceptForSdk(request.headers.accept) : request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(`${baseUrl}${MCP_PATH}`, { method: 'POST', headers });
}

const JsonRpcBody = Type.Unsafe<unknown>({ type: ['object', 'array'], items: {}, additionalProperties: {}, description: 'A JSON-RPC 2.0 message, or a batch of them' });

const JsonRpcError = Type.Object({
  jsonrpc: Type.Literal('2.0'),
  error: Type.Object({ code: Type.Integer(), message: Type.String() }, { additionalProperties: true }),
  id: Type.Union([Type.String(), Type.Number(), Type.Null()]),
});

/** A message answered here rather than by the SDK: a tools/call refused as a result, or bad params. */
const refusedHere = (message: unknown) => malformedToolCall(message) ?? invalidParams(message);

const isToolCall = (message: unknown) => typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'tools/call';

export function mcpTransportRoutes(deps: { catalog: ToolCatalog; gate: ApiKeyGate; baseUrl: string; version: string }): FastifyPluginAsyncTypebox {
  return async (app) => {
    parseToolServerBodies(app);
    app.post(
      MCP_PATH,
      {
        config: toolClientRoute(),
        schema: {
          operationId: 'callMcp',
          summary: 'The tool server (MCP)',
          description:
            'The tool server for AI clients: the Model Context Protocol over Streamable HTTP, stateless, with JSON responses (docs/mcp.md). Send JSON-RPC messages (`initialize`, `tools/list`, `tools/call`, …) (answers are always JSON, so an `Accept` that admits `application/json`, `*/*` or nothing at all is enough; one that admits neither answers 406). Each POST counts as one request against the rate limits, and each tool call in a batch as one more. Tool failures are results with `isError` and `_meta.code`; protocol errors are JSON-RPC errors: a message that is not JSON-RPC 2.0 is `-32600` (HTTP 400), a request whose params break its method\'s schema (a malformed `initialize`, say) `-32602` with a sentence naming each field (HTTP 200), wrong headers HTTP 406 or 415.',
          tags: ['mcp'],
          body: JsonRpcBody,
          response: {
            200: Type.Unknown({ description: 'The JSON-RPC response (or an array of them for a batch)' }),
            202: Type.Null({ description: 'Accepted: the body held only notifications or responses' }),
            // Two shapes: the service's envelope when the HTTP request itself is refused
            // (malformed JSON, a bad encoding), a JSON-RPC error when the JSON is not JSON-RPC.
            400: Type.Union([ErrorRef, JsonRpcError], { description: 'Malformed JSON (the error envelope), or a body that is not JSON-RPC (a JSON-RPC error)' }),
            406: { ...JsonRpcError, description: 'A JSON-RPC error: the `Accept` header admits no JSON answer' },
          },
        },
      },
      async (request, reply) => {
        // The guard counted this request once. Each further tool call in a JSON-RPC batch
        // counts one more, so a batch is no way around the per-key and per-account limits.
        const calls = Array.isArray(request.body) ? request.body.filter(isToolCall).length : 0;
        for (let i = 1; i < calls; i += 1) await deps.gate.countAgain(request);

        // Tool calls the SDK would answer with a protocol error are answered here, as results.
        if (request.body instanceof RefusedToolCall) return reply.code(200).send(request.body.response());
        // Not JSON-RPC at all: -32600 (the SDK would call it a parse error). Bad params: -32602.
        const notJsonRpc = invalidRequest(request.body);
        if (notJsonRpc) return reply.code(400).send(notJsonRpc.response());
        const refused = Array.isArray(request.body) ? null : refusedHere(request.body);
        if (refused) return reply.code(200).send(refused.response());
        const body = Array.isArray(request.body) ? request.body.filter((message) => !refusedHere(message)) : request.body;
        const refusedInBatch = Array.isArray(request.body) ? request.body.map(refusedHere).filter((r) => r !== null) : [];
        if (Array.isArray(body) && body.length === 0) return reply.code(200).send(refusedInBatch.map((r) => r.response()));

        const server = serverFor(deps.catalog, contextOf(request), deps.version);
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        await server.connect(transport);
        try {
          const response = await transport.handleRequest(webRequest(request, deps.baseUrl), { parsedBody: body });
          reply.code(response.status as 200); // whatever the SDK answered; the schema lists the usual ones
          response.headers.forEach((value, name) => {
            if (name !== 'content-length') reply.header(name, value);
          });
          const text = await response.text();
          if (refusedInBatch.length === 0) return reply.send(text);
          // A batch with refused calls: their answers join the SDK's.
          const answered: unknown = response.status === 200 ? JSON.parse(text) : [];
          return reply.code(200).type('application/json').send([...(Array.isArray(answered) ? answered : [answered]), ...refusedInBatch.map((r) => r.response())]);
        } finally {
          await server.close();
        }
      },
    );
    // GET (an event stream) and DELETE (ending a session) are not offered: the tool server
    // is stateless. The app's not-found handler answers them 405 with `Allow: POST`.
  };
}
