// The executions module's front door: run history and execution reports.
export { buildExecutionsModule } from './module.js';
export type { RunHistoryService } from './service.js';
export { findRunByExecutionId, presentRun } from './present.js';
export { endHistory, ERROR_MESSAGE_MAX, openHistories, openHistory, recordHistoryProxy } from './history.js';
export { historyRecordId, type OwnedMacro, runOutcomesOf } from './lookups.js';
export { ExecutionIdString } from './schemas.js';
