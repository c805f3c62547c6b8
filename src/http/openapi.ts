// The published description: generated from the route schemas, served without
// authentication at /openapi.json and /openapi.yaml, with a viewer at /docs whose files
// come from the @fastify/swagger-ui package (no CDN).
import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from './schema-helpers.js';

export const PACKAGE_VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

const DESCRIPTION = `Automation service for Android macros.

Routes whose security lists \`apiKey\` accept an API key in the \`X-API-KEY\` header; their required scope is stated in each
description and in \`x-required-scopes\`. Routes with the \`session\` scheme belong to the signed-in application and never accept a key.
Every error is \`{"message": "...", "details": {"code": "..."}}\`.`;

export async function installOpenApi(app: FastifyInstance, baseUrl: string): Promise<void> {
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Automation Service API', version: PACKAGE_VERSION, description: DESCRIPTION },
      servers: [{ url: baseUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'An API key: `svc_` followed by 48 hex characters.' },
          session: { type: 'http', scheme: 'bearer', description: 'The application session token (`sess_…`), or the `session` cookie.' },
          admin: { type: 'http', scheme: 'bearer', description: 'The operator token (ADMIN_TOKEN).' },
        },
      },
      tags: [
        { name: 'accounts', description: 'Sign-up, sign-in and sessions (application)' },
        { name: 'billing', description: 'Subscription state (application)' },
        { name: 'api-keys', description: 'API key management (application) and key self-check' },
        { name: 'macros', description: 'Macros (application)' },
        { name: 'code-sync', description: "A code macro's snapshot: read its state and upload a zip (keys with macros:run)" },
        { name: 'devices', description: 'Devices and device groups: listed with a key, changed by the application' },
        { name: 'profiles', description: 'Settings profiles of code macros, which devices follow (full-access keys only)' },
        { name: 'proxies', description: 'Proxies, assignments to devices, connection info and usage (full-access keys; usage reporting by the application)' },
        { name: 'runs', description: 'Run history and run logs (keys with runs:read); execution reporting (application)' },
        { name: 'webhooks', description: 'Webhook endpoints and their delivery log (full-access keys); custom events (application)' },
        { name: 'admin', description: "The operator's API" },
        { name: 'operations', description: 'Health, readiness and metrics' },
      ],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/openapi.yaml', { schema: { hide: true } }, async (_request, reply) => reply.type('application/yaml').send(app.swagger({ yaml: true })));
}
