// The SDK's types (clients/typescript/src/generated/openapi.ts) are generated from the
// committed openapi.json. A route change committed without `npm run clients:generate` fails
// here (and in .ci/run); once regenerated, `npm run typecheck` fails wherever the SDK or the
// `svc runs` / `svc devices` commands use what changed.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: a plain-JavaScript build script without declarations
import { generate, keyRoutesOnly } from '../../clients/typescript/scripts/generate.mjs';

const run = promisify(execFile);
const GENERATOR = 'clients/typescript/scripts/generate.mjs';

type Doc = { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>; components: Record<string, Record<string, unknown>> };
const document = JSON.parse(readFileSync('openapi.json', 'utf8')) as Doc;

describe('the SDK generated from openapi.json', () => {
  test('the committed types match what openapi.json produces (run `npm run clients:generate` after `npm run openapi`)', async () => {
    const committed = readFileSync('clients/typescript/src/generated/openapi.ts', 'utf8');
    expect(committed === (await generate(document)), 'clients/typescript/src/generated/openapi.ts is out of date: run `npm run clients:generate` and commit it').toBe(true);
  });

  test('--check fails, naming the fix, when the document has changed', async () => {
    const changed = structuredClone(document);
    changed.paths['/api/whoami'].get.security = [{ apiKey: [] }, { session: [] }];
    const dir = mkdtempSync(join(tmpdir(), 'sdk-gen-'));
    try {
      // A new key route in the document: the committed types lack it.
      changed.paths['/api/brand-new'] = { get: { security: [{ apiKey: [] }], responses: { 200: { description: 'ok' } } } as never };
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(changed));
      const failed = await run(process.execPath, [GENERATOR, '--check', '--openapi', join(dir, 'openapi.json')]).then(() => undefined, (error: { code: number; stderr: string }) => error);
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain('npm run clients:generate');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('holds exactly the key routes: every /api/ operation whose security lists apiKey, and none other', () => {
    const narrowed = keyRoutesOnly(document) as Doc;
    const operations = (doc: Doc, keep: (security: Record<string, string[]>[]) => boolean) =>
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method, op]) => ['get', 'post', 'put', 'delete', 'patch'].includes(method) && path.startsWith('/api/') && keep(op.security ?? []))
          .map(([method]) => `${method.toUpperCase()} ${path}`),
      );
    const keyRoutes = operations(document, (security) => security.some((s) => 'apiKey' in s));
    expect(keyRoutes).toContain('GET /api/whoami');
    expect(keyRoutes).toContain('POST /api/hosted/devices/{id}/run');
    expect(operations(narrowed, () => true).sort()).toEqual(keyRoutes.sort());
    // App-only routes and their shapes stay out: the key cannot call them.
    expect(operations(narrowed, () => true)).not.toContain('POST /api/api-keys');
    expect(narrowed.paths['/mcp']).toBeUndefined();
    expect(Object.keys(narrowed.components.securitySchemes)).toEqual(['apiKey']);
    const generated = readFileSync('clients/typescript/src/generated/openapi.ts', 'utf8');
    expect(generated).toContain('"/api/executions/{execution_id}/logs"');
    expect(generated).not.toContain('"/api/api-keys"');
  });
});
