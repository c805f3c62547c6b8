#!/usr/bin/env node
// `svc` as a package bin: `npx svc …` in a checkout (npm runs the project's own bin), or on the
// PATH after `npm install -g` / `npm link`. Unlike `npm run svc -- …` nothing but the command
// prints on standard output (npm's banner goes there), so `npx svc runs list --json | jq` works.
// It runs the build in dist/ and does not build: `npm run build` first, and again after a pull.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write(`svc: ${main} is missing: the service is not built. Run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))} first.\n`);
  process.exit(1);
}
// dist/main.js reads process.argv itself: `svc ARGS` is `node dist/main.js ARGS`.
await import(pathToFileURL(main).href);
