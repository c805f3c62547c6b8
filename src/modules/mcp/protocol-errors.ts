// JSON-RPC errors answered before the SDK sees the message, because the SDK's own answers are
// wrong for them: a message that is not JSON-RPC at all gets `-32700 Parse error` from it
// (that code is for JSON that does not parse), and a request whose params break the method's
// schema gets `-32603 Internal error` with the validator's raw output. Here the first is
// `-32600 Invalid Request` (HTTP 400) and the second `-32602 Invalid params` (HTTP 200, as
// any JSON-RPC error to a request), each with a sentence a person can act on (JSON-RPC 2.0 §5.1).
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

type JsonRpcId = string | number | null;

/** A JSON-RPC error answered here: its id, code, sentence and, for params, the field errors. */
export class ProtocolRefusal {
  constructor(
    readonly id: JsonRpcId,
    readonly code: ErrorCode.InvalidRequest | ErrorCode.InvalidParams,
    readonly message: string,
    readonly errors?: { path: string; message: string }[],
  ) {}

  response() {
    const data = this.errors ? { data: { errors: this.errors } } : {};
    return { jsonrpc: '2.0' as const, id: this.id, error: { code: this.code, message: this.message, ...data } };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string | number => typeof value === 'string' || Number.isInteger(value);
const idOf = (message: unknown): JsonRpcId => (isObject(message) && isId(message.id) ? message.id : null);

const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);
const RESPONSE_MEMBERS = new Set(['jsonrpc', 'id', 'result', 'error']);

/** What keeps a message from being JSON-RPC 2.0 as MCP uses it, or null when nothing does. */
function notJsonRpc(message: unknown): string | null {
  if (!isObject(message)) return 'a JSON-RPC message is a JSON object';
  if (message.jsonrpc !== '2.0') return '"jsonrpc" must be "2.0"';
  const isRequest = 'method' in message;
  if (!isRequest && !('id' in message)) return 'a message needs a "method" (a request or a notification), or an "id" with a "result" or an "error" (a response)';
  const unknown = Object.keys(message).find((name) => !(isRequest ? REQUEST_MEMBERS : RESPONSE_MEMBERS).has(name));
  if (unknown !== undefined) return `"${unknown.slice(0, 40)}" is not a member of a JSON-RPC ${isRequest ? 'request' : 'response'}`;
  if ('id' in message && !isId(message.id)) return '"id" must be a string or an integer';
  if (isRequest && typeof message.method !== 'string') return '"method" must be a string';
  if (isRequest && 'params' in message && !isObject(message.params)) return '"params" must be an object of named parameters';
  if (!isRequest && ('result' in message) === ('error' in message)) return 'a response carries exactly one of "result" and "error"';
  return null;
}

/**
 * The body (one message, or a batch) as a -32600 refusal when any message in it is not
 * JSON-RPC 2.0; null when all are. A request whose only fault lies inside its params
 * (`_meta`, say) is left to invalidParams.
 */
export function invalidRequest(body: unknown): ProtocolRefusal | null {
  const batch = Array.isArray(body);
  const messages: unknown[] = batch ? body : [body];
  if (batch && messages.length === 0) return new ProtocolRefusal(null, ErrorCode.InvalidRequest, 'Invalid Request: the batch is empty; send at least one JSON-RPC message.');
  for (const [index, message] of messages.entries()) {
    let why = notJsonRpc(message);
    if (why === null && !(isObject(message) && 'method' in message && 'id' in message) && !JSONRPCMessageSchema.safeParse(message).success) {
      why = 'it is not a well-formed JSON-RPC notification or response';
    }
    if (why === null) continue;
    const where = batch ? `message ${index + 1} of the batch is not valid JSON-RPC 2.0` : 'the message is not valid JSON-RPC 2.0';
    return new ProtocolRefusal(batch ? null : idOf(message), ErrorCode.InvalidRequest, `Invalid Request: ${where}: ${why}.`);
  }
  return null;
}

/** The methods this server answers, with the schema the SDK checks their requests against. */
const REQUEST_SCHEMAS: Record<string, { safeParse(value: unknown): { success: boolean; error?: { issues: ZodIssue[] } } }> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

/** How each method's params look, named in the sentence. */
const SHAPES: Record<string, string> = {
  initialize: '{"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "…", "version": "…"}}',
  'tools/call': '{"name": "<tool>", "arguments": {…}}',
  'tools/list': '{"cursor": "<cursor>"} or nothing',
  ping: 'nothing',
};

interface ZodIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function issueSentence(issue: ZodIssue): { path: string; message: string } {
  const path = ['params', ...issue.path.slice(issue.path[0] === 'params' ? 1 : 0)].map(String).join('.');
  if (issue.code === 'invalid_type' && issue.expected) {
    const missing = /received undefined$/.test(issue.message);
    return { path, message: `must be ${article(issue.expected)}${missing ? ' and is missing' : ''}` };
  }
  return { path, message: issue.message.replace(/^Invalid input: /, '').slice(0, 200) };
}

/**
 * A request to one of this server's methods whose params break that method's schema, as a
 * -32602 refusal naming each field; null otherwise (unknown methods are the SDK's: -32601).
 */
export function invalidParams(message: unknown): ProtocolRefusal | null {
  if (!isObject(message) || typeof message.method !== 'string' || !isId(message.id)) return null;
  const schema = Object.hasOwn(REQUEST_SCHEMAS, message.method) ? REQUEST_SCHEMAS[message.method] : undefined;
  if (!schema) {
    // Another method: only the `_meta` every request may carry is checked (the SDK would
    // otherwise call the message unparsable); the method itself is the SDK's to refuse.
    if (JSONRPCMessageSchema.safeParse(message).success) return null;
    const errors = [{ path: 'params._meta', message: 'must be an object (its progressToken a string or an integer)' }];
    return new ProtocolRefusal(message.id, ErrorCode.InvalidParams, `Invalid params for ${message.method.slice(0, 60)}: params._meta must be an object (its progressToken a string or an integer).`, errors);
  }
  const parsed = schema.safeParse({ method: message.method, params: message.params });
  if (parsed.success || !parsed.error) return null;
  const errors = parsed.error.issues.slice(0, 5).map(issueSentence);
  const fields = errors.map((e) => `${e.path} ${e.message}`).join('; ');
  return new ProtocolRefusal(message.id, ErrorCode.InvalidParams, `Invalid params for ${message.method}: ${fields}. Send params of the form ${SHAPES[message.method]}.`, errors);
}
