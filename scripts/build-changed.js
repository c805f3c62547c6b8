// `npm start` builds only what changed: `node scripts/build-changed.js` checks the server and
// the console and builds a part only when its inputs hash differently from what its last
// build was made from (or the build is missing):
//   server   src/, tsconfig.json, tsconfig.build.json, package-lock.json, scripts/bundle-server.js
//            -> dist/ with TypeScript's incremental build (`tsc -p tsconfig.build.json`,
//            `incremental` with its build information in dist/server.tsbuildinfo), so a change
//            rebuilds only what it affects; then dist/bundle/ (bundle-server.js), which
//            `node dist/main.js` loads. Not `tsc -b`: its up-to-date check trusts modification times and
//            misses a file put back with an older one (`cp -p`, `tar x`); `tsc -p` compares
//            the contents the build information recorded.
//   console  web/ (sources, index.html, public/, the Vite config and web/build/),
//            package-lock.json -> dist/console with `vite build`
//   client   the TypeScript SDK, clients/typescript/ (src/, tsconfig.json, package.json) ->
//            clients/typescript/dist with `tsc`. The server's `svc runs` and `svc devices`
//            import it (package.json "imports": #svc-client), so building the server builds
//            it first.
// The hash covers the path and bytes of every input file (not modification times: a `touch`
// or a `git checkout` that changes nothing costs no build, and an edit is never missed). It
// is taken before the build starts and written beside the built files after the build
// succeeds (dist/.server-source-hash, dist/console/.source-hash: dot files, which the
// console module never serves), so a failed build, or a file edited during one, builds
// again next time. Checking both when nothing changed takes a fraction of a second: it never
// loads TypeScript or Vite.
//
// Usage: node scripts/build-changed.js [server] [console] [client] [--force]
//   names the parts to check (server and console by default: `npm start`; server brings
//   client with it); `npm run build` is `server`;
//   --force builds them whatever the hash says (`npm run build:web` is `console --force`).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Change it when what goes into a hash changes, so every build made before is redone. */
const HASH_FORMAT = 'source-hash/1';
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/**
 * @typedef {object} Target
 * @property {string} name
 * @property {string[]} inputs files and folders (walked) the build is made from, relative to the root
 * @property {string} outDir relative to the root
 * @property {string[]} outputs files in outDir without which there is no build
 * @property {string} hashFile in outDir
 */

/** @typedef {'client' | 'server' | 'console'} TargetName */

/** @type {Record<TargetName, Target>} */
export const TARGETS = {
  client: { name: 'client', inputs: ['clients/typescript/src', 'clients/typescript/tsconfig.json', 'clients/typescript/package.json', 'package-lock.json'], outDir: 'clients/typescript/dist', outputs: ['index.js', 'index.d.ts'], hashFile: '.source-hash' },
  server: { name: 'server', inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json', 'scripts/bundle-server.js'], outDir: 'dist', outputs: ['main.js', 'bundle/svc.js', 'server.tsbuildinfo'], hashFile: '.server-source-hash' },
  console: { name: 'console', inputs: ['web', 'package-lock.json'], outDir: 'dist/console', outputs: ['index.html'], hashFile: '.source-hash' },
};

/** @param {string} path @returns {string[]} */
function filesUnder(path) {
  if (!existsSync(path)) return [];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    const child = join(path, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : filesUnder(child);
    return entry.isFile() ? [child] : [];
  });
}

/**
 * SHA-256 over the path and bytes of every input file, in a fixed order: any added, removed,
 * renamed or edited file changes it.
 * @param {string} root the repository root
 * @param {string[]} inputs files and folders relative to the root
 * @returns {string}
 */
export function sourceHash(root, inputs) {
  const files = inputs
    .flatMap((input) => {
      const path = join(root, input);
      if (!existsSync(path)) return [];
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    })
    .map((path) => relative(root, path).split(sep).join('/'))
    .sort();
  const hash = createHash('sha256').update(HASH_FORMAT);
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(join(root, file)));
  return hash.digest('hex');
}

/**
 * @param {string} root
 * @param {Target} target
 * @returns {string | null} the hash the build in outDir was made from, or null when there is no complete build
 */
function builtFrom(root, target) {
  const outDir = join(root, target.outDir);
  if (!target.outputs.every((output) => existsSync(join(outDir, output)))) return null;
  try {
    return readFileSync(join(outDir, target.hashFile), 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * Builds `target` unless `ifChanged` and its build was made from the same inputs. `build` runs
 * the real build (tsc, vite); tests pass their own. On failure no hash is left behind.
 * @param {{ root: string, target: Target, ifChanged: boolean, build: () => Promise<void> }} options
 * @returns {Promise<{ built: boolean, hash: string }>}
 */
export async function buildIfChanged({ root, target, ifChanged, build }) {
  const hash = sourceHash(root, target.inputs);
  if (ifChanged && builtFrom(root, target) === hash) return { built: false, hash };
  rmSync(join(root, target.outDir, target.hashFile), { force: true });
  await build();
  writeFileSync(join(root, target.outDir, target.hashFile), `${hash}\n`);
  return { built: true, hash };
}

/** @param {string} root @returns {Record<TargetName, () => Promise<void>>} */
function realBuilds(root) {
  const require = createRequire(join(root, 'package.json'));
  return {
    client: async () => {
      const tsc = require.resolve('typescript/bin/tsc');
      const result = spawnSync(process.execPath, [tsc, '-p', 'clients/typescript/tsconfig.json'], { cwd: root, stdio: 'inherit' });
      if (result.status !== 0) throw new Error(`the SDK build failed (tsc exited ${result.status ?? result.signal})`);
    },
    server: async () => {
      const tsc = require.resolve('typescript/bin/tsc');
      const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
      if (result.status !== 0) throw new Error(`the server build failed (tsc exited ${result.status ?? result.signal})`);
      // What `node dist/main.js` loads: the compiled files as one bundle (bundle-server.js).
      const { bundleServer } = await import('./bundle-server.js');
      await bundleServer(root);
    },
    console: async () => {
      // A production build even when started under a test runner (vitest sets NODE_ENV=test,
      // which would bundle React's development build).
      process.env.NODE_ENV = 'production';
      const { build } = await import('vite');
      await build({ configFile: join(root, 'web', 'vite.config.ts'), logLevel: 'warn' });
    },
  };
}

async function main() {
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const args = process.argv.slice(2);
  const names = /** @type {TargetName[]} */ (Object.keys(TARGETS));
  const named = /** @type {TargetName[]} */ (args.filter((arg) => names.includes(/** @type {TargetName} */ (arg))));
  const unknown = args.filter((arg) => !names.includes(/** @type {TargetName} */ (arg)) && arg !== '--force');
  if (unknown.length) throw new Error(`unknown arguments: ${unknown.join(' ')} (usage: build-changed.js [server] [console] [client] [--force])`);
  const wanted = new Set(named.length ? named : ['server', 'console']);
  // The server imports the SDK's build: it comes first, in the order of TARGETS.
  if (wanted.has('server')) wanted.add('client');
  const builds = realBuilds(root);
  for (const name of names.filter((n) => wanted.has(n))) {
    const result = await buildIfChanged({ root, target: TARGETS[name], ifChanged: !args.includes('--force'), build: builds[name] });
    if (!result.built) process.stderr.write(`${name} unchanged since its last build: not rebuilt\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
