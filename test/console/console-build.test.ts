// `npm start` skips the console build when web/ and package-lock.json hash to what the last
// build was made from (web/build/console-build.js). This holds the skip to that promise on a
// small fake repository, with a stand-in for vite: it builds on any change to a source, the
// config, the lock file or the output, and skips otherwise.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { buildConsole, HASH_FILE } from '../../web/build/console-build.js';

let root: string;
let outDir: string;
let builds: number;

/** What vite would do: empty the output folder and write index.html. */
async function fakeVite(): Promise<void> {
  builds++;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'index.html'), '<!doctype html>');
}

const start = () => buildConsole({ root, outDir, ifChanged: true, build: fakeVite });
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'console-build-'));
  outDir = join(root, 'dist', 'console');
  builds = 0;
  write('web/index.html', '<div id="root"></div>');
  write('web/vite.config.ts', 'export default {};');
  write('web/src/main.tsx', 'render(<App />);');
  write('package-lock.json', '{"lockfileVersion": 3}');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the console build on start', () => {
  test('builds the first time, then skips while nothing changed', async () => {
    expect(await start()).toMatchObject({ built: true });
    expect(await start()).toMatchObject({ built: false });
    expect(await start()).toMatchObject({ built: false });
    expect(builds).toBe(1);
  });

  test.each([
    ['a source file edited', () => write('web/src/main.tsx', 'render(<App strict />);')],
    ['a source file added', () => write('web/src/pages/new/NewPage.tsx', 'export {};')],
    ['a source file removed', () => unlinkSync(join(root, 'web/src/main.tsx'))],
    ['a source file renamed', () => { unlinkSync(join(root, 'web/src/main.tsx')); write('web/src/index.tsx', 'render(<App />);'); }],
    ['the Vite config changed', () => write('web/vite.config.ts', 'export default { base: "/" };')],
    ['a build helper changed', () => write('web/build/js-budget.ts', 'export const BUDGET = 1;')],
    ['the lock file changed', () => write('package-lock.json', '{"lockfileVersion": 3, "packages": {}}')],
    ['the built index.html is gone', () => unlinkSync(join(outDir, 'index.html'))],
    ['the stored hash is gone', () => unlinkSync(join(outDir, HASH_FILE))],
  ])('builds again when %s', async (_what, change) => {
    await start();
    change();
    expect(await start()).toMatchObject({ built: true });
    expect(builds).toBe(2);
    expect(await start()).toMatchObject({ built: false });
  });

  test('a new modification time with the same contents is no change', async () => {
    await start();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'web/src/main.tsx'), later, later);
    expect(await start()).toMatchObject({ built: false });
    expect(builds).toBe(1);
  });

  test('a failed build leaves no hash behind, so the next start builds again', async () => {
    await start();
    write('web/src/main.tsx', 'a syntax error (');
    const failing = () => buildConsole({ root, outDir, ifChanged: true, build: async () => { builds++; throw new Error('vite: parse error'); } });
    await expect(failing()).rejects.toThrow('parse error');
    // Put back as it was when the last good build ran: the output is not that build any more.
    write('web/src/main.tsx', 'render(<App />);');
    expect(await start()).toMatchObject({ built: true });
  });

  test('without --if-changed it always builds (npm run build:web)', async () => {
    await start();
    expect(await buildConsole({ root, outDir, ifChanged: false, build: fakeVite })).toMatchObject({ built: true });
    expect(builds).toBe(2);
  });
});
