// `npm start` builds the server and the console only when their inputs hash differently from
// what their last build was made from (scripts/build-changed.js). This holds the skip to that
// promise on a small fake repository, with stand-ins for tsc and vite: a part is built again
// on any change to its sources, its config, the lock file or its output, and skipped
// otherwise; a change to one part does not build the other.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { buildIfChanged, TARGETS, type Target } from '../scripts/build-changed.js';

let root: string;
let builds: Record<string, number>;

const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};

/** What tsc or vite would leave: the target's outputs (vite empties its folder first). */
function fakeBuild(target: Target): () => Promise<void> {
  return async () => {
    builds[target.name] = (builds[target.name] ?? 0) + 1;
    if (target.name === 'console') rmSync(join(root, target.outDir), { recursive: true, force: true });
    for (const output of target.outputs) write(join(target.outDir, output), `built ${builds[target.name]}`);
  };
}

/** One `npm start`: both parts checked, in order. */
async function start(): Promise<{ server: boolean; console: boolean }> {
  const server = await buildIfChanged({ root, target: TARGETS.server, ifChanged: true, build: fakeBuild(TARGETS.server) });
  const console = await buildIfChanged({ root, target: TARGETS.console, ifChanged: true, build: fakeBuild(TARGETS.console) });
  return { server: server.built, console: console.built };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-changed-'));
  builds = {};
  write('src/main.ts', 'serve();');
  write('tsconfig.json', '{}');
  write('tsconfig.build.json', '{"extends": "./tsconfig.json"}');
  write('web/index.html', '<div id="root"></div>');
  write('web/vite.config.ts', 'export default {};');
  write('web/src/main.tsx', 'render(<App />);');
  write('package-lock.json', '{"lockfileVersion": 3}');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('npm start builds what changed', () => {
  test('both the first time, then neither while nothing changed', async () => {
    expect(await start()).toEqual({ server: true, console: true });
    expect(await start()).toEqual({ server: false, console: false });
    expect(await start()).toEqual({ server: false, console: false });
    expect(builds).toEqual({ server: 1, console: 1 });
  });

  test.each([
    ['a server source edited', () => write('src/main.ts', 'serve({ port: 1 });'), { server: true, console: false }],
    ['a server source added', () => write('src/modules/new/index.ts', 'export {};'), { server: true, console: false }],
    ['a server source removed', () => unlinkSync(join(root, 'src/main.ts')), { server: true, console: false }],
    ['the build config changed', () => write('tsconfig.build.json', '{"extends": "./tsconfig.json", "compilerOptions": {}}'), { server: true, console: false }],
    ['the compiler options changed', () => write('tsconfig.json', '{"compilerOptions": {"strict": true}}'), { server: true, console: false }],
    ['the server output is gone', () => unlinkSync(join(root, 'dist/main.js')), { server: true, console: false }],
    ['the build information is gone', () => unlinkSync(join(root, 'dist/server.tsbuildinfo')), { server: true, console: false }],
    ['a console source edited', () => write('web/src/main.tsx', 'render(<App strict />);'), { server: false, console: true }],
    ['a console source added', () => write('web/src/pages/new/NewPage.tsx', 'export {};'), { server: false, console: true }],
    ['a console source renamed', () => { unlinkSync(join(root, 'web/src/main.tsx')); write('web/src/index.tsx', 'render(<App />);'); }, { server: false, console: true }],
    ['the Vite config changed', () => write('web/vite.config.ts', 'export default { base: "/" };'), { server: false, console: true }],
    ['a console build helper changed', () => write('web/build/js-budget.ts', 'export const BUDGET = 1;'), { server: false, console: true }],
    ['the built index.html is gone', () => unlinkSync(join(root, 'dist/console/index.html')), { server: false, console: true }],
    ['the console\'s stored hash is gone', () => unlinkSync(join(root, 'dist/console', TARGETS.console.hashFile)), { server: false, console: true }],
    ['the lock file changed', () => write('package-lock.json', '{"lockfileVersion": 3, "packages": {}}'), { server: true, console: true }],
  ])('builds again when %s', async (_what, change, rebuilt) => {
    await start();
    change();
    expect(await start()).toEqual(rebuilt);
    expect(await start()).toEqual({ server: false, console: false });
  });

  test('a new modification time with the same contents is no change', async () => {
    await start();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src/main.ts'), later, later);
    utimesSync(join(root, 'web/src/main.tsx'), later, later);
    expect(await start()).toEqual({ server: false, console: false });
  });

  test('an edit with an older modification time than the build is still a change', async () => {
    await start();
    write('src/main.ts', 'serve({ port: 2 });');
    const earlier = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(root, 'src/main.ts'), earlier, earlier);
    expect(await start()).toEqual({ server: true, console: false });
  });

  test('a failed build leaves no hash behind, so the next start builds again', async () => {
    await start();
    write('src/main.ts', 'a type error (');
    const failing = buildIfChanged({ root, target: TARGETS.server, ifChanged: true, build: async () => { throw new Error('tsc: 1 error'); } });
    await expect(failing).rejects.toThrow('tsc: 1 error');
    // Put back as it was when the last good build ran: the output is not that build any more.
    write('src/main.ts', 'serve();');
    expect(await start()).toEqual({ server: true, console: false });
  });

  test('--force builds whatever the hash says (npm run build:web)', async () => {
    await start();
    expect(await buildIfChanged({ root, target: TARGETS.console, ifChanged: false, build: fakeBuild(TARGETS.console) })).toMatchObject({ built: true });
    expect(builds.console).toBe(2);
  });
});
