// The run-logs module's front door.
export { runLogRoutes } from './routes.js';
export { RunLogService } from './service.js';
