// The maps module's front door: menu maps learned by exploring an app (decisions.md §13), as
// the wiring, the job catalogue, the tool server and the authoring agent use them. The
// explorer itself is the module's own (its tests and benchmark read its files directly).
export { buildMapsModule } from './module.js';
export type { MapsService } from './maps-service.js';
export { explorationJob } from './exploration-job.js';
export * as MapsToolSchemas from './schemas.js';
