// The published description: generated from the route schemas, served without
// authentication at /openapi.json and /openapi.yaml, with a viewer at /docs whose files
// come from the @fastify/swagger-ui package (no CDN).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '../core/schema.js';
import { PACKAGE_ROOT } from '../lib/package-root.js';
import { shareSchemas } from './openapi-shared-schemas.js';

export const PACKAGE_VERSION: string = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).version;

const DESCRIPTION = `Automation service for Android macros.

Routes whose security lists \`apiKey\` accept an API key in the \`X-API-KEY\` header; their required scope is stated in each
description and in \`x-required-scopes\`. Routes with the \`session\` scheme belong to the signed-in application and never accept a key.
Every error is \`{"message": "...", "details": {"code": "..."}}\`: a sentence to act on and a machine-readable code.

## Statuses

Each operation lists every status it can answer. Besides its own:

| Status | \`details.code\` | When |
|---|---|---|
| 400 | \`bad_request\` | the URL or body is not valid UTF-8 or percent-encoding, the body is not JSON, or it holds a \`__proto__\` key |
| 401 | \`missing_api_key\`, \`invalid_api_key\`, \`api_key_not_user_scoped\`, \`missing_credentials\` | no valid credentials of the kind the operation takes |
| 402 | \`subscription_required\` | a key whose owner has no active subscription or trial |
| 403 | \`insufficient_scope\` | a key whose scopes do not cover the operation |
| 404 | \`not_found\` | no such resource, or someone else's |
| 405 | \`method_not_allowed\` | a method the path does not have (the \`Allow\` header lists those it has); not listed per operation |
| 413 | \`payload_too_large\` | a body over the operation's limit (1 MiB unless stated) |
| 414 | \`uri_too_long\` | an over-long path parameter |
| 415 | \`unsupported_media_type\` | a body with a \`Content-Encoding\` other than identity or a charset other than UTF-8 |
| 422 | \`validation_failed\` | a parameter or field breaks its rule; \`details.errors\` lists the first few |
| 429 | \`rate_limit_exceeded\` | over a key's or an account's rate (or sign-in attempts per address); see \`Retry-After\` |
| 431 | \`headers_too_large\` | request headers larger than the server accepts |
| 500 | \`internal_error\` | a failure on the server's side, logged with its cause |
| 503 | \`shutting_down\` | the request arrived while the server stops; retry it |`;

/** What a success answer means, where the route's schema does not say. */
const SUCCESS: Record<string, string> = {
  '200': 'Success: the result.',
  '201': 'Created: the new resource.',
  '202': 'Accepted: the work is queued.',
  '204': 'Done; the answer has no body.',
};

type Operation = { responses?: Record<string, { description?: string }> };

/** Gives success answers a description in place of @fastify/swagger's "Default Response". */
function describeSuccesses(document: { paths?: Record<string, Record<string, Operation>> }): void {
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.description === 'Default Response' && SUCCESS[status]) response.description = SUCCESS[status];
      }
    }
  }
}

/** `shared`: schemas the document names once under components, by name (openapi-shared-schemas.ts). */
export async function installOpenApi(app: FastifyInstance, baseUrl: string, shared: Record<string, object> = {}): Promise<void> {
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Automation Service API', version: PACKAGE_VERSION, description: DESCRIPTION },
      servers: [{ url: baseUrl, description: 'This server (its BASE_URL setting).' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'An API key: `svc_` followed by 48 hex characters.' },
          session: { type: 'http', scheme: 'bearer', description: 'The application session token (`sess_…`), or the `session` cookie.' },
          admin: { type: 'http', scheme: 'bearer', description: 'The operator token (ADMIN_TOKEN).' },
          toolClient: { type: 'http', scheme: 'bearer', description: 'The tool server at /mcp: an API key (`svc_…`) or a tool-server token (`mcpt_…`) from POST /api/mcp/oauth/token.' },
        },
      },
      tags: [
        { name: 'accounts', description: 'Sign-up, sign-in and sessions (application)' },
        { name: 'billing', description: 'Subscription state and AI credits (application)' },
        { name: 'api-keys', description: 'API key management (application) and key self-check' },
        { name: 'macros', description: 'Macros (application)' },
        { name: 'code-sync', description: "A code macro's snapshot: read its state and upload a zip (keys with macros:run)" },
        { name: 'devices', description: 'Devices and device groups: listed with a key, changed by the application' },
        { name: 'recorder', description: "The recorder: record what you do on a cloud device's live view as steps, save them as a macro, replay it (application)" },
        { name: 'cloud-runs', description: 'Cloud runs: start, read and stop a macro run on one of your cloud devices (keys with macros:run)' },
        { name: 'schedules', description: 'Schedules: macros that run on a cloud device or cloud group on a cron expression in a time zone (application; tool clients use the schedule tools)' },
        { name: 'profiles', description: 'Settings profiles of code macros, which devices follow (full-access keys only)' },
        { name: 'proxies', description: 'Proxies, assignments to devices, connection info and usage (full-access keys; usage reporting by the application)' },
        { name: 'runs', description: 'Run history and run logs (keys with runs:read); execution reporting (application)' },
        { name: 'webhooks', description: 'Webhook endpoints and their delivery log (full-access keys); custom events (application)' },
        { name: 'authoring', description: 'The authoring agent: describe a macro in words, follow the agent as it writes and runs it (application; tool clients use the authoring tools)' },
        { name: 'marketplace', description: 'Publish, search, review and install macros (application)' },
        { name: 'mcp', description: 'The tool server for AI clients (MCP at /mcp), its token exchange and discovery documents' },
        { name: 'admin', description: "The operator's API" },
        { name: 'operations', description: 'Health, readiness and metrics' },
      ],
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      describeSuccesses(documentObject.openapiObject as Parameters<typeof describeSuccesses>[0]);
      shareSchemas(documentObject.openapiObject as Parameters<typeof shareSchemas>[0], shared);
      return documentObject.openapiObject;
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/openapi.yaml', { schema: { hide: true } }, async (_request, reply) => reply.type('application/yaml').send(app.swagger({ yaml: true })));
}
