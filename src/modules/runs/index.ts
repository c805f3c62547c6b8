// The runs module's front door: cloud runs' building blocks (decisions.md §10, §11). Other
// modules and the wiring use only what is exported here.
export { buildRunsModule, RunExecutor, runnerSettingsOf, type RunsModuleDeps, type RunsServices } from './module.js';

// Cloud runs and the run job
export { CloudRunService } from './cloud-runs/service.js';
export type { RunCapacity } from './cloud-runs/capacity.js';
export { type CloudRunRecord, presentCloudRun } from './cloud-runs/present.js';
export { CloudRun, CloudRunRef } from './cloud-runs/schemas.js';
export { type ProxyExit, type ProxyExitCheck, type RunReadiness } from './job/readiness.js';
export { CLOUD_RUN_JOB, CLOUD_RUN_STOP, cloudRunJob, type CloudRunJob } from './job/run-job.js';
export { createRunWorker, type RunWorker } from './job/run-worker.js';
export { WORKER_LOST } from './job/run-transitions.js';

// Arguments
export { argumentWords, pythonCommand } from './arguments/command-line.js';
export { CLI_ARGS_KEY, mergeRunArgs, type RunArgs } from './arguments/merge.js';
export { loadProfileArgs, resolveRunArgs } from './arguments/profile-args.js';

// Block programs
export { blockProgramSchema, SCHEMA_PATH as BLOCK_PROGRAM_SCHEMA_PATH, STEP_TYPES } from './blocks/program-schema.js';
export { type BlockProgram, countSteps, type Step } from './blocks/program-types.js';
export { normalizeBlocks, parseBlockProgram, validateBlockProgram } from './blocks/validate.js';
export { canonicalJson } from './blocks/canonical-json.js';
export { runBlockProgram } from './blocks/interpreter.js';

// Executing a claimed run
export { bundleForMacro, loadRunBundle, type MacroBundle, MacroNotRunnableError, pinRunBundle } from './executor/bundle.js';
export { type ClaimedRun, DEVICE_RPC_PATH, executeRun, type ExecutorDeps } from './executor/execute-run.js';
export { HISTORY_STATUS, RUN_END_STATES, type RunEndState, type RunOutcome } from './outcome.js';

// The device RPC and run tokens
export { DeviceRpc } from './rpc/device-rpc.js';
export type { RunCaller } from './rpc/functions.js';
export { TOKEN_STATES } from './rpc/run-tokens.js';

// Logs
export { type LogSink, runLogStoreSink } from './logs/log-sink.js';
