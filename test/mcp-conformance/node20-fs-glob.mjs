// `node --import ./test/mcp-conformance/node20-fs-glob.mjs …`: lets the MCP conformance suite
// (@modelcontextprotocol/conformance) run on Node 20. The suite imports `globSync` from `fs`,
// which Node has only from 22 on; this hook hands that one import a module that re-exports
// node:fs with `glob`'s globSync added. Nothing else is redirected, and on Node 22 or later it
// registers nothing.
import { register } from 'node:module';

if (!('globSync' in (await import('node:fs')))) register('./fs-glob-loader.mjs', import.meta.url);
