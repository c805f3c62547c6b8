// Tool calls refused before the SDK sees them, answered as error results (decisions.md §12:
// a bad argument is a result with a code, never a protocol error). Two kinds reach here:
// a body the app's JSON rules refuse (nesting deeper than 64 levels, a NUL character, a
// lone surrogate, a prototype key), which the app answers 422 or 400 on every other route;
// and a tools/call whose `name` is not a string or whose `arguments` is not an object,
// which the SDK would answer with a JSON-RPC error (-32603).
import type { FastifyInstance } from 'fastify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../core/errors.js';
import { parseJsonBody } from '../../lib/json-body.js';
import { appErrorResult, toolError } from './tool-result.js';

type JsonRpcId = string | number;

/** A tools/call answered here: its JSON-RPC id and the error result. */
export class RefusedToolCall {
  constructor(
    readonly id: JsonRpcId,
    readonly result: CallToolResult,
  ) {}

  response() {
    return { jsonrpc: '2.0' as const, id: this.id, result: this.result };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The id of a tools/call request (one with an id), or undefined. */
function toolCallId(message: unknown): JsonRpcId | undefined {
  if (!isObject(message) || message.method !== 'tools/call') return undefined;
  return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
}

/** A tools/call whose name or arguments the SDK's request schema would refuse, as a refusal. */
export function malformedToolCall(message: unknown): RefusedToolCall | null {
  const id = toolCallId(message);
  if (id === undefined) return null;
  const params = (message as { params?: unknown }).params;
  if (!isObject(params) || typeof params.name !== 'string') {
    return new RefusedToolCall(id, toolError('validation_failed', 'The arguments are not valid: params.name must be the name of a tool (a string).'));
  }
  if (params.arguments !== undefined && !isObject(params.arguments)) {
    return new RefusedToolCall(id, toolError('validation_failed', 'The arguments are not valid: arguments must be an object of named arguments.'));
  }
  return null;
}

/**
 * `/mcp`'s JSON parser: the app's (json-body.ts), except that a single tools/call whose body
 * breaks the app's JSON rules becomes a RefusedToolCall carrying that error as a result.
 * Registered inside the transport's plugin, so no other route changes.
 */
export function parseToolServerBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, parseJsonBody(request.headers, body as Buffer));
    } catch (error) {
      const refused = refusedBody(body as Buffer, error);
      if (refused) done(null, refused);
      else done(error as Error, undefined);
    }
  });
}

function refusedBody(bytes: Buffer, error: unknown): RefusedToolCall | null {
  if (!(error instanceof AppError) || !['validation_failed', 'bad_request'].includes(error.code)) return null;
  let message: unknown;
  try {
    // It parsed once already (the error came from the checks after parsing); only the top
    // level is read, so its depth costs nothing here.
    message = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  const id = toolCallId(message);
  if (id === undefined) return null;
  const result = appErrorResult(error);
  if (!result) return null;
  const first = result.content[0];
  // Paths read as the tool's arguments, not as the HTTP body they came in.
  if (first?.type === 'text') first.text = first.text.replaceAll('body.params.arguments', 'arguments').replaceAll('body.params.', '');
  return new RefusedToolCall(id, result);
}
