// One MCP server per request (stateless Streamable HTTP): it knows the caller, answers
// tools/list with the tools the caller's scopes allow and tools/call through the catalogue,
// and is dropped with the request, so any `serve` process answers any call and no state
// lives in the transport (handles such as lease_id travel in tool arguments).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceContext } from '../../core/context.js';
import type { ToolCatalog } from './tool-catalog.js';

export const SERVER_INFO = { name: 'automation-service', version: '1' };

const INSTRUCTIONS =
  'Drive cloud Android devices and runs. Lease a device with device_lease, then pass its lease_id to the device tools; ' +
  'release it with device_release when done. Coordinates are device pixels. Tool errors carry a code in _meta.code.';

export function serverFor(catalog: ToolCatalog, ctx: ServiceContext, version: string): Server {
  const server = new Server({ ...SERVER_INFO, version }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: catalog.visibleTo(ctx.scopes) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => catalog.call(ctx, request.params.name, request.params.arguments));
  return server;
}
