// The maps module's front door: menu maps learned by exploring an app (decisions.md §13).
export { DEFAULT_DO_NOT_TOUCH, doNotTouchMatcher } from './explorer/do-not-touch.js';
export { Explorer, type ExploreOptions, replayPath } from './explorer/explorer.js';
export { elementKeyOf, screenIdOf, visibleElements } from './explorer/screen-identity.js';
export type * from './explorer/types.js';
export { buildMapsModule } from './module.js';
export type { MapsService } from './maps-service.js';
export { explorationJob } from './exploration-job.js';
export { WORKER_LOST as EXPLORATION_WORKER_LOST } from './exploration-handler.js';
export * as MapsToolSchemas from './schemas.js';
