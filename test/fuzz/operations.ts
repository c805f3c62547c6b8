// The operations of the committed openapi.json, and valid requests for each: path ids the
// caller owns, query parameters and bodies generated from the documented schemas.
import fc from 'fast-check';
import { type GenContext, type Schema, valueFor } from './schema-arbitrary.js';
import { PROJECTS, type Pools, type Resource } from './world.js';

export interface Parameter {
  in: 'path' | 'query';
  name: string;
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  operationId: string;
  method: string;
  /** The OpenAPI path, e.g. /api/macros/{id}. */
  path: string;
  auth: 'apiKey' | 'session' | 'admin' | 'public';
  parameters: Parameter[];
  body?: Schema;
  /** Whether a client can send a body (Fastify reads one on these methods). */
  takesBody: boolean;
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId: string; security?: Record<string, unknown>[]; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Operation['responses'] }>>;
  components: { schemas: Record<string, Schema> };
}

/** A query value: text to encode, or text already percent-encoded (to send bad encodings). */
export type QueryValue = { text: string } | { encoded: string };

export interface FuzzRequest {
  /** What was done to a valid request ("valid" when nothing). */
  mutation: string;
  /** Path parameter values, already percent-encoded. */
  params: Record<string, string>;
  query: [string, QueryValue][];
  /** A JSON value, raw text sent as application/json (malformed or hand-built JSON), or raw bytes. */
  body?: { json: unknown } | { raw: string } | { bytes: number[] };
  /** Headers that replace the defaults (content type, content encoding). */
  headers?: Record<string, string>;
}

/** Deletions last, children before parents: they shrink the pools the others draw from. */
const DELETE_ORDER = ['endProxyAssignment', 'deleteProfile', 'deleteWebhookEndpoint', 'deleteLocalDevice', 'deleteProxy', 'deleteDeviceGroup', 'deleteMacro', 'revokeApiKey', 'removeManagedProxy'];
const ORDER = (op: Operation) => (op.method === 'delete' ? 1 + Math.max(0, DELETE_ORDER.indexOf(op.operationId)) : 0);

export function listOperations(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const security = JSON.stringify(op.security ?? []);
      const auth = security.includes('apiKey') ? 'apiKey' : security.includes('session') ? 'session' : security.includes('admin') ? 'admin' : 'public';
      operations.push({
        operationId: op.operationId,
        method,
        path,
        auth,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content['application/json']?.schema,
        takesBody: op.requestBody !== undefined || ['post', 'put', 'patch', 'delete'].includes(method),
        responses: op.responses,
      });
    }
  }
  return operations.sort((a, b) => ORDER(a) - ORDER(b));
}

/** Which pool a path parameter draws from, by where it sits. */
export function resourceOfPath(path: string): Resource | 'executionIds' | undefined {
  const rules: [RegExp, Resource | 'executionIds'][] = [
    [/^\/api\/macros\/\{id\}/, 'macros'],
    [/^\/api\/emulator\/groups\/\{id\}/, 'groups'],
    [/^\/api\/emulator\/devices\/\{id\}/, 'devices'],
    [/^\/api\/executions\/\{execution_id\}/, 'executionIds'],
    [/^\/api\/executions\/\{id\}/, 'executions'],
    [/^\/api\/macro-setting-profiles\/\{id\}/, 'profiles'],
    [/^\/api\/webhooks\/deliveries\/\{id\}/, 'deliveries'],
    [/^\/api\/webhooks\/\{id\}/, 'webhooks'],
    [/^\/api\/proxy\/assignments\/\{id\}/, 'assignments'],
    [/^\/api\/proxy\/devices\/\{device_id\}/, 'devices'],
    [/^\/api\/proxy\/\{id\}/, 'proxies'],
    [/^\/api\/api-keys\/\{id\}/, 'apiKeys'],
    [/^\/admin\/users\/\{id\}/, 'users'],
    [/^\/admin\/proxies\/\{id\}/, 'managedProxies'],
  ];
  return rules.find(([pattern]) => pattern.test(path))?.[1];
}

/** Which pool a body or query field draws from, by its name. */
const FIELD_RESOURCES: Record<string, Resource> = {
  macro_id: 'macros',
  device_id: 'devices',
  emulator_device_id: 'devices',
  scope_device_id: 'devices',
  group_id: 'groups',
  scope_group_id: 'groups',
  profile_id: 'profiles',
  proxy_id: 'proxies',
  endpoint_id: 'webhooks',
};
export const resourceOfField = (field: string): Resource | undefined => FIELD_RESOURCES[field];

const PROXY_HOSTS = ['10.1.2.3', '192.168.7.7', '127.0.0.1', 'fd00::1', '[fd00::2]', 'proxy.internal', 'gw.example.net'];
const PROXY_LINES = ['10.0.0.5:8080', '10.0.0.6:8080:user:secret', 'socks5://u:p@10.0.0.7:1080', 'https://10.0.0.8:443', 'gw.example.net:7000:u:p', 'not a proxy', ':80', '10.0.0.9:99999'];

export function generationContext(doc: OpenApiDocument, pools: Pools, emails: string[]): GenContext {
  return {
    resolve: (ref) => doc.components.schemas[ref.replace('#/components/schemas/', '')] ?? {},
    idsFor: (field) => {
      const resource = resourceOfField(field);
      return resource ? pools.own[resource] : undefined;
    },
    special: (field) => {
      switch (field) {
        case 'url':
          return fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom('https://hooks.example.net/in', 'https://hooks.example.net/a/b?c=d') },
            { weight: 1, arbitrary: fc.constantFrom('http://hooks.example.net/', 'https://10.0.0.1/', 'https://localhost/x', 'https://internal.example/', 'ftp://x/', 'not a url') },
          );
        case 'host':
          return fc.constantFrom(...PROXY_HOSTS);
        case 'proxies':
          return fc.array(fc.constantFrom(...PROXY_LINES), { minLength: 1, maxLength: 5 }).map((lines) => lines.join('\n'));
        case 'zip_file_base64':
          return fc.constantFrom(...PROJECTS.map((p) => p.zip_file_base64));
        case 'worktree_hash':
          return fc.constantFrom(...PROJECTS.map((p) => p.worktree_hash));
        case 'execution_id':
          return fc.oneof(fc.constantFrom(...pools.ownExecutionIds), fc.stringMatching(/^fz-[a-z0-9]{1,12}$/));
        case 'email':
          return fc.oneof(fc.constantFrom(...emails), fc.emailAddress().filter((e) => e.length <= 254));
        case 'password':
          return fc.oneof(fc.constant('correct horse battery'), fc.string({ minLength: 8, maxLength: 20 }));
        default:
          return undefined;
      }
    },
  };
}

/** Rules between fields that a schema cannot state, applied to valid bodies so that most succeed. */
const COHERENT: Record<string, (body: Record<string, unknown>) => Record<string, unknown>> = {
  reportExecution: (body) => {
    if (body.status === 'running') return { ...body, ended_at: undefined, exit_code: undefined, error_message: undefined };
    const started = Date.parse(String(body.started_at));
    const ended = Date.parse(String(body.ended_at));
    return Number.isNaN(ended) || ended < started ? { ...body, ended_at: new Date(started + 60_000).toISOString() } : body;
  },
};

const encodeQuery = (v: unknown): QueryValue => ({ text: typeof v === 'string' ? v : JSON.stringify(v) });

/** A request every rule of the document allows, with the caller's own ids. */
export function validRequest(op: Operation, ctx: GenContext, pools: Pools): fc.Arbitrary<FuzzRequest> {
  const resource = resourceOfPath(op.path);
  const params: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.parameters.filter((p) => p.in === 'path')) {
    const ids = resource === 'executionIds' ? pools.ownExecutionIds : resource ? pools.own[resource].map(String) : [];
    params[p.name] = ids.length > 0 ? fc.constantFrom(...ids).map(encodeURIComponent) : valueFor(p.schema, ctx).map((v) => encodeURIComponent(String(v)));
  }
  const query = op.parameters
    .filter((p) => p.in === 'query')
    .map((p) => {
      const value = valueFor(p.schema, ctx, p.name).map((v) => [[p.name, encodeQuery(v)]] as [string, QueryValue][]);
      return p.required ? value : fc.option(value, { nil: [] as [string, QueryValue][] });
    });
  const coherent = COHERENT[op.operationId] ?? ((body: Record<string, unknown>) => body);
  const body = op.body ? valueFor(op.body, ctx).map((json) => ({ json: coherent(json as Record<string, unknown>) })) : fc.constant(undefined);
  return fc.record({ params: fc.record(params), query: fc.tuple(...query).map((parts) => parts.flat()), body }).map((r) => ({ mutation: 'valid', ...r }));
}
