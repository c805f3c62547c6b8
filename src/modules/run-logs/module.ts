// Builds the run-logs module.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { runLogRoutes } from './routes.js';
import { RunLogService } from './service.js';

export interface RunLogsServices {
  logs: RunLogService;
}

export function buildRunLogsModule(deps: ModuleDeps): BuiltModule<RunLogsServices> {
  const logs = new RunLogService(deps.db.kysely);
  return { routes: runLogRoutes(logs), services: { logs } };
}
