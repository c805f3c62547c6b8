// The ops module's front door: health, readiness and metrics.
export { buildOpsModule } from './module.js';
