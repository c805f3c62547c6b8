// The published description: public, complete, valid, and identical to the committed copy.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { systemClock } from '../../src/lib/clock.js';
import { sessionRoute } from '../../src/http/route-auth.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Response = { description: string; content?: Record<string, { schema?: { $ref?: string } }> };
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: unknown[];
  'x-required-scopes'?: string[];
  parameters?: { in: string }[];
  requestBody?: unknown;
  responses: Record<string, Response>;
};
type Doc = { info: { version: string }; paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ url: '/openapi.json' })).json();
});
afterAll(() => t.close());

async function generated(): Promise<unknown> {
  // Exactly what `svc openapi` prints: default settings, base URL http://localhost:8080, a throw-away key.
  const db = openDatabase({ sqliteFile: ':memory:' });
  const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), baseUrl: 'http://localhost:8080', secretKey: randomBytes(32) };
  const app = await buildApp({ config, db, clock: systemClock });
  await app.ready();
  const result = app.swagger();
  await app.close();
  await db.close();
  return JSON.parse(JSON.stringify(result));
}

describe('published description', () => {
  test('/openapi.json, /openapi.yaml and /docs need no authentication', async () => {
    expect((await t.app.inject({ url: '/openapi.json' })).statusCode).toBe(200);
    const yaml = await t.app.inject({ url: '/openapi.yaml' });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.body).toContain('openapi: 3.1.0');
    const docs = await t.app.inject({ url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger-ui');
    // The viewer is served from the package, not a CDN.
    expect(docs.body).not.toMatch(/https?:\/\/(unpkg|cdn|cdnjs|jsdelivr)/);
    const bundle = await t.app.inject({ url: '/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
  });

  test('info.version is the package version', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(doc.info.version).toBe(pkg.version);
  });

  test('is a valid OpenAPI document (swagger-parser)', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  test('describes every registered route with the security its guard enforces', () => {
    for (const route of t.app.routeCatalog) {
      // A GET documents its HEAD twin (when Fastify exposes HEAD routes).
      if (route.method === 'HEAD') continue;
      const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      // Key routes take the owner's session too, except the key-only ones (decision 0006).
      const keyRoute = route.auth.kind === 'apiKey' && route.auth.keyOnly ? [{ apiKey: [] }] : [{ apiKey: [] }, { session: [] }];
      const expected = { apiKey: keyRoute, toolClient: [{ apiKey: [] }, { toolClient: [] }], session: [{ session: [] }], admin: [{ admin: [] }], public: [] }[route.auth.kind];
      expect(op?.security, `${route.method} ${path}`).toEqual(expected);
      if (route.auth.kind === 'apiKey') {
        expect(op?.['x-required-scopes']).toEqual(typeof route.auth.scope === 'string' && route.auth.scope !== 'full' ? [route.auth.scope] : []);
        expect(op?.description).toMatch(/Auth:/);
      }
    }
  });

  test('the committed openapi.json matches what the code generates (run `npm run openapi` after changing routes)', async () => {
    const committed = JSON.parse(readFileSync('openapi.json', 'utf8'));
    expect(committed).toEqual(await generated());
  });
});

const operations = () => Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
const AUTH_NOTE = /\n*\*\*Auth:\*\*[^\n]*$/;

describe('every operation', () => {
  test('has a unique camelCase operationId', () => {
    const ids = operations().map(({ path, method, op }) => [`${method} ${path}`, op.operationId]);
    for (const [where, id] of ids) expect(id, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
    expect(new Set(ids.map(([, id]) => id)).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(60);
  });

  test('has a description of its own, beyond the summary and the auth note', () => {
    for (const { path, method, op } of operations()) {
      const own = (op.description ?? '').replace(AUTH_NOTE, '').trim();
      expect(own.length, `${method} ${path}`).toBeGreaterThanOrEqual(40);
      expect(own, `${method} ${path}`).not.toBe(op.summary);
      // The auth note is added once, even for a route Fastify also registers as HEAD.
      expect((op.description ?? '').match(/\*\*Auth:\*\*/g)?.length ?? 0, `${method} ${path}`).toBeLessThanOrEqual(1);
    }
  });

  test('documents a success and every error status its method, parameters, body and guard allow', () => {
    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`;
      const statuses = Object.keys(op.responses);
      // The OAuth authorization endpoint exists only to refuse (decisions.md §7).
      if (path !== '/api/mcp/oauth/authorize') expect(statuses.some((s) => /^2\d\d$/.test(s)), where).toBe(true);
      const expected = [431, 500, 503];
      const inPath = (op.parameters ?? []).some((p) => p.in === 'path');
      const inQuery = (op.parameters ?? []).some((p) => p.in === 'query');
      if (inPath) expected.push(400, 414, 422);
      if (inQuery) expected.push(400, 422);
      if (op.requestBody || ['post', 'put', 'patch', 'delete'].includes(method)) expected.push(400, 413, 415, 422);
      const security = JSON.stringify(op.security);
      if (security.includes('apiKey')) expected.push(401, 402, 429, ...(op['x-required-scopes']?.length || op.description?.includes('Full-access') ? [403] : []));
      if (security.includes('session')) expected.push(401);
      if (security.includes('admin')) expected.push(401, 404);
      for (const status of expected) expect(statuses, `${where} documents ${status}`).toContain(String(status));
      // 405 belongs to a path, not an operation.
      expect(statuses, where).not.toContain('405');
    }
  });

  test('describes each error status and gives it the error envelope', () => {
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) {
          expect(response.description, `${method} ${path} ${status}`).not.toBe('Default Response');
          continue;
        }
        // OAuth routes answer RFC 6749's {error, error_description}, which OAuth clients parse.
        // The framework's own refusals (431, 413, 500, …) keep the envelope there too.
        const schema = JSON.stringify(response.content?.['application/json']?.schema);
        if (path.startsWith('/api/mcp/oauth/') && schema.includes('error_description')) continue;
        // The tool server answers MCP clients JSON-RPC errors where the JSON is not JSON-RPC (400,
        // beside the envelope for malformed JSON) or no JSON answer is acceptable (406).
        if (path === '/mcp' && schema.includes('"jsonrpc"')) {
          if (status === '400') expect(schema, 'post /mcp 400').toContain('#/components/schemas/Error');
          continue;
        }
        expect(response.content?.['application/json']?.schema?.$ref, `${method} ${path} ${status}`).toBe('#/components/schemas/Error');
        expect(response.description, `${method} ${path} ${status}`).not.toMatch(/^Error envelope/);
      }
    }
    expect(doc.paths['/api/macros']?.post?.responses['413']?.description).toMatch(/1 MiB/);
    expect(doc.paths['/api/macros/{id}/code-snapshot']?.post?.responses['413']?.description).toMatch(/16777216 bytes/);
  });

  test('/metrics documents its 200 text/plain answer, and answers it', async () => {
    const op = doc.paths['/metrics']?.get;
    expect(op?.responses['200']?.content).toEqual({ 'text/plain': { schema: { type: 'string' } } });
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('http_requests_total');
  });

  test('HEAD routes are not separate operations', () => {
    for (const item of Object.values(doc.paths)) expect(Object.keys(item)).not.toContain('head');
  });
});

describe('a route that is not documented stops the app from starting', () => {
  // A fresh object each time: the guard hook writes the derived documentation into it.
  const described = () => ({ operationId: 'testRoute', description: 'A test route that exists only in this test file.' });
  const start = (schema: Record<string, unknown>, second?: Record<string, unknown>) =>
    createTestApp({
      extend: (app) => {
        app.get('/api/test/one', { config: sessionRoute(), schema }, async () => ({}));
        if (second) app.get('/api/test/two', { config: sessionRoute(), schema: second }, async () => ({}));
      },
    });

  test('without an operationId', async () => {
    await expect(start({ description: described().description })).rejects.toThrow(/GET \/api\/test\/one declares no camelCase operationId/);
    await expect(start({ ...described(), operationId: 'Not-camel' })).rejects.toThrow(/operationId/);
  });

  test('with an operationId another route has', async () => {
    await expect(start(described(), described())).rejects.toThrow(/reuses the operationId testRoute/);
  });

  test('without a description', async () => {
    await expect(start({ operationId: 'testRoute' })).rejects.toThrow(/declares no description/);
  });

  test('a documented GET that Fastify also answers as HEAD is described once and published once', async () => {
    const app = await createTestApp({
      extend: (instance) => void instance.get('/api/test/one', { config: sessionRoute(), exposeHeadRoute: true, schema: described() }, async () => ({ ok: true })),
    });
    try {
      expect((await app.app.inject({ method: 'HEAD', url: '/api/test/one' })).statusCode).toBe(401);
      const published = (await app.app.inject({ url: '/openapi.json' })).json() as Doc;
      expect(Object.keys(published.paths['/api/test/one'] ?? {})).toEqual(['get']);
      expect(published.paths['/api/test/one']?.get?.description?.match(/\*\*Auth:\*\*/g)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
