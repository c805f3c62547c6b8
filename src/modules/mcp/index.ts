// The mcp module's front door: the tool server at /mcp (transport, tokens, discovery, tool
// registration). The tools are built from other modules' services, handed in by build-modules.ts.
export { buildMcpModule } from './module.js';
