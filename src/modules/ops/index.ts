// The ops module's front door: health, readiness and metrics.
export { buildOpsModule, type OpsModuleDeps } from './module.js';
