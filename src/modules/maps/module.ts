// buildMapsModule(deps): menu maps (decisions.md §13): the routes, the explorations and maps
// services (the tool server's `map_get` reads through the latter), and the exploration worker.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { JobLog } from '../../db/jobs/worker.js';
import type { ModuleDeps } from '../../http/module.js';
import type { DeviceHost } from '../devices/index.js';
import type { ExplorationReadiness, ThumbnailStore } from './exploration-handler.js';
import { explorationJob } from './exploration-job.js';
import { createExplorationWorker, type ExplorationWorker } from './exploration-worker.js';
import { ExplorationService } from './explorations-service.js';
import { MapsService } from './maps-service.js';
import { mapRoutes } from './routes.js';

export interface MapsModuleDeps extends ModuleDeps {
  host: DeviceHost;
  readiness: ExplorationReadiness;
  /** The image library, where screen thumbnails go. */
  thumbnails?: ThumbnailStore;
  log: JobLog;
  workerName?: string;
}

export interface MapsServices {
  explorations: ExplorationService;
  maps: MapsService;
}

export function buildMapsModule(deps: MapsModuleDeps): { routes: FastifyPluginAsyncTypebox; services: MapsServices; workers: [ExplorationWorker] } {
  const explorations = new ExplorationService(deps.db, deps.clock);
  const maps = new MapsService(deps.db, deps.thumbnails);
  const explorationWorker = createExplorationWorker({ db: deps.db, clock: deps.clock, log: deps.log, kind: explorationJob(), host: deps.host, readiness: deps.readiness, thumbnails: deps.thumbnails, name: deps.workerName });
  return { routes: mapRoutes(explorations, maps), services: { explorations, maps }, workers: [explorationWorker] };
}
