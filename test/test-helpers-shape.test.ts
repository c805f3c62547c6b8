// Test files share a worker process and its module cache (`isolate: false`, vitest.config.ts),
// so a helper module is evaluated once per worker, not once per file. A hook registered at a
// helper's top level would therefore belong to whichever file imported it first, and the next
// file would use an app that file already closed. Shared set-up is a function each file calls.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

function helperFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return helperFiles(path);
    return /\.ts$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Statements at a module's top level (no indentation) that register vitest hooks or build a shared world. */
const TOP_LEVEL_SET_UP = /^(beforeAll|afterAll|beforeEach|afterEach)\(|^(const|let) \w+ = use[A-Z]\w*\(/m;

test('no helper module registers hooks or builds a shared world when it is imported', () => {
  const files = helperFiles('test');
  expect(files.length).toBeGreaterThan(20);
  const offenders = files.filter((file) => TOP_LEVEL_SET_UP.test(readFileSync(file, 'utf8')));
  expect(offenders).toEqual([]);
});

test('the check sees a top-level hook and a top-level world', () => {
  expect(TOP_LEVEL_SET_UP.test("import x from 'y';\nbeforeAll(async () => {});\n")).toBe(true);
  expect(TOP_LEVEL_SET_UP.test("const world = useDeliveryWorld({});\n")).toBe(true);
  expect(TOP_LEVEL_SET_UP.test('export function useX() {\n  beforeAll(() => {});\n}\n')).toBe(false);
});
