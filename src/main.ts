#!/usr/bin/env node
// `node dist/main.js COMMAND`: the built command line (svc.ts) as one bundle. Loading the ~2,000
// module files the service is made of took about 1.7 s of every start; the bundle that
// scripts/bundle-server.js makes of them after each server build loads in about half that
// (issue 34 point 4, docs/PERFORMANCE.md "Start-up"). svc.ts reads process.argv itself.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = new URL('./bundle/svc.js', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write(`${fileURLToPath(bundle)} is missing: the service is not built. Run \`npm run build\` first.\n`);
  process.exit(1);
}
await import(bundle.href);
