// The console's API types are generated from the committed openapi.json. If a route change
// is committed without regenerating them, this fails; once regenerated, `npm run typecheck`
// fails wherever the console uses what changed. So a route change cannot silently break it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';

test('web/src/api/schema.d.ts matches openapi.json (run `npm run console:types` after `npm run openapi`)', () => {
  const require = createRequire(import.meta.url);
  const cli = join(dirname(require.resolve('openapi-typescript/package.json')), 'bin/cli.js');
  const dir = mkdtempSync(join(tmpdir(), 'console-types-'));
  try {
    const out = join(dir, 'schema.d.ts');
    execFileSync(process.execPath, [cli, 'openapi.json', '-o', out], { stdio: 'pipe' });
    const committed = readFileSync('web/src/api/schema.d.ts', 'utf8');
    const generated = readFileSync(out, 'utf8');
    expect(committed.length).toBeGreaterThan(1000);
    expect(committed === generated, 'web/src/api/schema.d.ts is out of date: run `npm run console:types` and commit it').toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
