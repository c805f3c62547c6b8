// The maps module's front door: menu maps learned by exploring an app (decisions.md §13).
export { DEFAULT_DO_NOT_TOUCH, type DoNotTouch, doNotTouchMatcher } from './explorer/do-not-touch.js';
export { Explorer, type ExploreOptions, replayPath } from './explorer/explorer.js';
export { elementKeyOf, screenIdOf, visibleElements } from './explorer/screen-identity.js';
export type * from './explorer/types.js';
export { buildMapsModule, type MapsModuleDeps, type MapsServices } from './module.js';
export type { ExplorationService } from './explorations-service.js';
export type { MapsService } from './maps-service.js';
export { EXPLORATION_JOB, explorationJob, type ExplorationJob } from './exploration-job.js';
export { WORKER_LOST as EXPLORATION_WORKER_LOST } from './exploration-handler.js';
export { type ExplorationRecord, MenuMap, type MenuMapRecord } from './schemas.js';
export * as MapsToolSchemas from './schemas.js';
