// The run-logs module's front door.
export { buildRunLogsModule, type RunLogsServices } from './module.js';
export type { RunLogService } from './service.js';
export { appendLogBatch } from './store.js';
export { RunLog, RunLogQuery, type RunLogInput } from './schemas.js';
