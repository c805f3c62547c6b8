// The published description: public, complete, valid, and identical to the committed copy.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { systemClock } from '../src/lib/clock.js';
import { createTestApp, type TestApp } from './helpers/app.js';

type Doc = { info: { version: string }; paths: Record<string, Record<string, { security?: unknown[]; description?: string; 'x-required-scopes'?: string[] }>> };

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
      const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      const expected = { apiKey: [{ apiKey: [] }], session: [{ session: [] }], admin: [{ admin: [] }], public: [] }[route.auth.kind];
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
