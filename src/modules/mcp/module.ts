// Builds the tool server: the tool catalogue, the token store and exchange, the guard that
// admits keys and tokens at /mcp, and the routes (the transport, discovery, the token
// endpoint). The tools take the other modules' services, never a database handle.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import type { RequestGuard } from '../../http/guards/install.js';
import { PACKAGE_VERSION } from '../../http/openapi.js';
import type { ApiKeyGate, KeyResolver } from '../api-keys/index.js';
import type { CodeSyncService } from '../code-sync/index.js';
import type { DeviceService, LeaseService } from '../devices/index.js';
import type { ImageLibrary, ScreenImages } from '../images/index.js';
import type { MacroService } from '../macros/index.js';
import type { MapsService } from '../maps/index.js';
import type { RunLogService } from '../run-logs/index.js';
import { toolClientGuard } from './credential-guard.js';
import { MCP_PATH, oauthRoutes, RESOURCE_METADATA_PATH } from './oauth/routes.js';
import { originChecked } from './origin-guard.js';
import { TokenExchange } from './oauth/token-exchange.js';
import { McpTokenStore } from './oauth/token-store.js';
import type { AuthoringSessionService } from '../authoring/index.js';
import type { CloudRunService, RunValidation, TraceService } from '../runs/index.js';
import type { ScheduleService } from '../scheduler/index.js';
import { ToolCatalog, type ToolLog } from './tool-catalog.js';
import { registerAuthoringTools } from './tools/authoring-tools.js';
import { registerDeviceTools } from './tools/device-tools.js';
import { registerMacroTools } from './tools/macro-tools.js';
import { registerMapTools } from './tools/map-tools.js';
import { registerRunTools } from './tools/run-tools.js';
import { registerScheduleTools } from './tools/schedule-tools.js';
import { registerScreenTools } from './tools/screen-tools.js';
import { mcpTransportRoutes } from './transport.js';

export interface McpModuleDeps extends ModuleDeps {
  gate: ApiKeyGate;
  resolver: KeyResolver;
  macros: MacroService;
  codeSync: CodeSyncService;
  runLogs: RunLogService;
  devices: DeviceService;
  images: ImageLibrary;
  /** map_get reads learned maps through the maps module's service. */
  maps: Pick<MapsService, 'find'>;
  screen: ScreenImages;
  leases: LeaseService;
  runs: CloudRunService;
  traces: TraceService;
  runChecks: RunValidation;
  schedules: Pick<ScheduleService, 'create' | 'list' | 'disable'>;
  /** The authoring agent's sessions, for the macros:author tools. */
  authoring: AuthoringSessionService;
  log: ToolLog;
}

export interface McpServices {
  /** The guard of `/mcp`, installed with the others (http/guards/install.ts). */
  guard: RequestGuard;
  catalog: ToolCatalog;
  tokens: McpTokenStore;
}

export function buildMcpModule(deps: McpModuleDeps): BuiltModule<McpServices> {
  const { config, db, clock } = deps;
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const catalog = new ToolCatalog(deps.log);
  const toolDeps = {
    clock,
    macros: deps.macros,
    codeSync: deps.codeSync,
    runLogs: deps.runLogs,
    devices: deps.devices,
    leases: deps.leases,
    images: deps.images,
    screen: deps.screen,
    runs: deps.runs,
    traces: deps.traces,
    runChecks: deps.runChecks,
    schedules: deps.schedules,
  };
  registerDeviceTools(catalog, toolDeps);
  registerScreenTools(catalog, toolDeps);
  registerMacroTools(catalog, toolDeps);
  registerRunTools(catalog, toolDeps);
  registerMapTools(catalog, deps.maps);
  registerAuthoringTools(catalog, { ...toolDeps, authoring: deps.authoring });
  registerScheduleTools(catalog, toolDeps.schedules);

  const tokens = new McpTokenStore(db.kysely);
  const exchange = new TokenExchange(deps.resolver, tokens, clock, `${baseUrl}${MCP_PATH}`);
  const credentials = toolClientGuard({ gate: deps.gate, tokens, clock, resourceMetadataUrl: `${baseUrl}${RESOURCE_METADATA_PATH}${MCP_PATH}` });
  const guard = originChecked([new URL(baseUrl).origin, ...config.mcpAllowedOrigins], credentials);

  const routes: FastifyPluginAsyncTypebox = async (app) => {
    await app.register(oauthRoutes(exchange, baseUrl));
    await app.register(mcpTransportRoutes({ catalog, gate: deps.gate, baseUrl, version: PACKAGE_VERSION }));
  };
  return { routes, services: { guard, catalog, tokens } };
}
