// Builds the ops module: health, readiness, the API's starting point and metrics. HTTP only,
// so the app builds it beside the others with the metrics registry it created.
import type { Registry } from 'prom-client';
import type { Redis } from '../../db/redis.js';
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { runSandboxWarning } from '../runs/index.js';
import { opsRoutes } from './routes.js';

export interface OpsModuleDeps extends ModuleDeps {
  registry: Registry;
  redis?: Redis;
}

export function buildOpsModule(deps: OpsModuleDeps): BuiltModule<Record<string, never>> {
  return { routes: opsRoutes(deps.db, deps.registry, deps.redis, deps.config.baseUrl, () => runSandboxWarning(deps.config)), services: {} };
}
