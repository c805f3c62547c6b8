// The run-logs module's front door.
export { buildRunLogsModule } from './module.js';
export type { RunLogService } from './service.js';
export { appendLogBatch } from './store.js';
export { RunLog, RunLogQuery } from './schemas.js';
