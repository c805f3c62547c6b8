// The ops module's front door: health, readiness and metrics.
export { opsRoutes } from './routes.js';
