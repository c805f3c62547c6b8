// Builds the console (vite build) only when it would come out different: `npm start` runs
// `node web/build/console-build.js --if-changed`, which skips the build when web/ (sources,
// config, build helpers) and package-lock.json hash to what the last build was made from.
// The hash is written beside the built files (dist/console/.source-hash, a dot file the
// console module never serves) after a build succeeds, and is computed before the build
// starts, so a file edited during a build makes the next start build again. File contents
// are hashed, not modification times: a `git checkout` that changes nothing, or a `touch`,
// does not cost a build, and an edit never goes unnoticed. Without --if-changed it always
// builds (`npm run build:web`).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Change it when what goes into the hash changes, so every build made before is redone. */
const HASH_FORMAT = 'console-source-hash/1';
export const HASH_FILE = '.source-hash';

/** What the build is made from, relative to the repository root. */
const INPUT_DIRS = ['web'];
const INPUT_FILES = ['package-lock.json'];
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/** @param {string} dir @returns {string[]} */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/**
 * SHA-256 over the path and bytes of every input file, in a fixed order: any added, removed,
 * renamed or edited file changes it.
 * @param {string} root the repository root
 * @returns {string}
 */
export function consoleSourceHash(root) {
  const files = [
    ...INPUT_DIRS.flatMap((dir) => filesUnder(join(root, dir))),
    ...INPUT_FILES.map((file) => join(root, file)).filter((file) => existsSync(file)),
  ]
    .map((path) => relative(root, path).split(sep).join('/'))
    .sort();
  const hash = createHash('sha256').update(HASH_FORMAT);
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(join(root, file)));
  return hash.digest('hex');
}

/**
 * @param {string} outDir
 * @returns {string | null} the hash the build in outDir was made from, or null when there is no complete build
 */
function builtFrom(outDir) {
  if (!existsSync(join(outDir, 'index.html'))) return null;
  try {
    return readFileSync(join(outDir, HASH_FILE), 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * Builds unless `ifChanged` and the build in `outDir` was made from the same inputs.
 * `build` is vite's build; tests pass their own. On failure no hash is left behind, so the
 * next start builds again.
 * @param {{ root: string, outDir: string, ifChanged: boolean, build: () => Promise<void> }} options
 * @returns {Promise<{ built: boolean, hash: string }>}
 */
export async function buildConsole({ root, outDir, ifChanged, build }) {
  const hash = consoleSourceHash(root);
  if (ifChanged && builtFrom(outDir) === hash) return { built: false, hash };
  rmSync(join(outDir, HASH_FILE), { force: true });
  await build();
  writeFileSync(join(outDir, HASH_FILE), `${hash}\n`);
  return { built: true, hash };
}

async function main() {
  const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
  const ifChanged = process.argv.includes('--if-changed');
  // A production build even when started under a test runner (vitest sets NODE_ENV=test,
  // which would bundle React's development build).
  process.env.NODE_ENV = 'production';
  const result = await buildConsole({
    root,
    outDir: join(root, 'dist', 'console'),
    ifChanged,
    build: async () => {
      const { build } = await import('vite');
      await build({ configFile: join(root, 'web', 'vite.config.ts'), logLevel: 'warn' });
    },
  });
  if (!result.built) process.stderr.write('console unchanged since its last build: not rebuilt\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
