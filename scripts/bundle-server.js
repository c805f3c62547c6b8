// The compiled server (dist/, from tsc) as one bundle in dist/bundle/, which `node dist/main.js`
// loads (issue 34 point 4). Node spends most of a start resolving, reading and linking the
// ~2,000 ES module files of the service and its pure-JavaScript dependencies; one file set
// of a few chunks loads in about half the time. Run by scripts/build-changed.js after every
// server build; by hand: node scripts/bundle-server.js
//
// Entries: svc (the command line) and the two worker-thread scripts, which the code starts
// from files beside itself (runs-thread.ts: ./entry.js; match-pool.ts: match-worker.js), so
// all three and their shared chunks are written to one folder.
//
// Bundled: our code and the packages it imports, except those listed below, which stay
// ordinary imports from node_modules: native addons, and packages that find their own files
// at run time (@fastify/swagger-ui's static files, tesseract.js's worker, piscina's thread
// script, pino's transport workers, the GeoIP database). Packages loaded on demand
// (src/lib/package-on-demand.ts) are `require`d by a name the bundler does not see, so they
// stay in node_modules too.
import { rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const LEFT_TO_NODE = ['better-sqlite3', 'sharp', 'piscina', 'pino', 'thread-stream', '@fastify/swagger-ui', '@fastify/static', 'tesseract.js', '@techstark/opencv-js', '@ip-location-db', 'pg-native', '#svc-client'];

const BUILTIN = new Set(builtinModules);

/** Left to Node at run time: built-in modules and the packages above. */
function external(id) {
  if (id.startsWith('node:') || BUILTIN.has(id.split('/')[0])) return true;
  return LEFT_TO_NODE.some((name) => id === name || id.startsWith(`${name}/`));
}

/** @param {string} root the repository root (dist/ built by tsc) */
export async function bundleServer(root) {
  const outDir = join(root, 'dist', 'bundle');
  rmSync(outDir, { recursive: true, force: true });
  await build({
    cwd: root,
    input: { svc: 'dist/svc.js', entry: 'dist/runs-thread/entry.js', 'match-worker': 'dist/modules/vision/match-worker.js' },
    platform: 'node',
    external,
    logLevel: 'warn',
    output: { dir: outDir, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunk-[hash].js', sourcemap: true },
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleServer(resolve(fileURLToPath(new URL('..', import.meta.url))));
}
