// Builds the ops module: health, readiness, the API's starting point and metrics. HTTP only,
// so the app builds it beside the others with the metrics registry it created.
import type { Registry } from 'prom-client';
import type { Redis } from '../../db/redis.js';
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import type { ScreenImages } from '../images/index.js';
import { runSandboxWarning } from '../runs/index.js';
import { opsRoutes } from './routes.js';

export interface OpsModuleDeps extends ModuleDeps {
  registry: Registry;
  redis?: Redis;
  /** The vision engines' state: the images module's screen operations. */
  screen: Pick<ScreenImages, 'engines'>;
}

export function buildOpsModule(deps: OpsModuleDeps): BuiltModule<Record<string, never>> {
  const routes = opsRoutes({ db: deps.db, registry: deps.registry, redis: deps.redis, baseUrl: deps.config.baseUrl, runSandboxWarning: () => runSandboxWarning(deps.config), engines: () => deps.screen.engines() });
  return { routes, services: {} };
}
