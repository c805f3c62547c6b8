// The mcp module's front door: the tool server at /mcp (transport, tokens, discovery, tool
// registration). Other modules' services reach the tools through McpPorts.
export { buildMcpModule, type McpModuleDeps, type McpServices } from './module.js';
export type { CloudRuns, DeviceLeases, Lease, McpPorts } from './ports.js';
export { registerScopedTool, type ScopedTool, ToolCatalog } from './tool-catalog.js';
export { TOKEN_TTL_MS } from './oauth/token-store.js';
export { TOOL_SCREENSHOT } from './tools/device-input-tools.js';
