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
// Bundled: our code and the ESM-only packages of many small files (the bulk of the module
// count). Everything else stays an ordinary import from node_modules: native addons, packages
// that find their own files at run time (@fastify/swagger-ui's static files, tesseract.js's
// worker, piscina's thread script, pino's transports), and CommonJS packages, which Node
// loads cheaply anyway.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const BUNDLED_PACKAGES = ['typebox', 'kysely', 'zod', 'zod-to-json-schema', 'openai', '@modelcontextprotocol/sdk', '@fastify/type-provider-typebox'];

/** A bare import of a package not listed above: left to Node at run time. */
function external(id) {
  if (id.startsWith('.') || id.startsWith('/') || id.startsWith('\0')) return false;
  return !BUNDLED_PACKAGES.some((name) => id === name || id.startsWith(`${name}/`));
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
