// The console's shape, held: every call to the API is in an area's data file
// (`pages/<area>/<area>-api.ts`), never inline in a component, and no file of the console, the
// tests or the benchmarks grows past 15 KB (the generated API types aside). docs/console.md,
// "How the code is laid out".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

const SOURCES = filesUnder('web/src').filter((path) => /\.(ts|tsx)$/.test(path) && !path.endsWith('schema.d.ts'));
const isDataFile = (path: string) => /-api\.ts$/.test(path);
/** What reaching the API looks like: the typed client, fetch, XMLHttpRequest. */
const CALLS = /\bapi\.(GET|POST|PUT|PATCH|DELETE)\(|from '[./]*\/?api\/client'|\bfetch\(|new XMLHttpRequest\(/;

test('only data files call the API', () => {
  expect(SOURCES.length).toBeGreaterThan(50);
  const inline = SOURCES.filter((path) => !isDataFile(path) && CALLS.test(readFileSync(path, 'utf8'))).map((path) => relative('.', path));
  expect(inline, 'move these calls into the area\'s <area>-api.ts').toEqual([]);
});

test('every area has its data file', () => {
  const areas = readdirSync('web/src/pages', { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  // The overview only counts what other areas own, through their data files.
  const missing = areas.filter((area) => area !== 'overview' && !SOURCES.some((path) => path.startsWith(join('web/src/pages', area)) && isDataFile(path)));
  expect(missing).toEqual([]);
});

test('no file in web/src, test or bench is over 15 KB', () => {
  const files = ['web/src', 'test', 'bench'].flatMap(filesUnder).filter((path) => !path.endsWith('web/src/api/schema.d.ts'));
  const large = files.filter((path) => statSync(path).size > 15 * 1024).map((path) => `${path} (${(statSync(path).size / 1024).toFixed(1)} KB)`);
  expect(large).toEqual([]);
});
