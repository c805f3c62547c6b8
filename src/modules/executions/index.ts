// The executions module's front door: run history and execution reports.
export { findRunByExecutionId } from './present.js';
export { ExecutionReporter } from './report.js';
export { executionRoutes } from './routes.js';
export { ExecutionIdString } from './schemas.js';
export { RunHistoryService } from './service.js';
