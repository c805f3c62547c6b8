// The runs module's front door: what other modules, the wiring and the tests use of cloud runs
// (decisions.md §10, §11). Everything else in runs/ is its own; a name is added here when
// another module needs it.

// Building the module, and the services it hands out
export { buildRunsModule, type RunsServices } from './module.js';
export type { CloudRunService } from './cloud-runs/service.js';
export type { RunReadiness } from './job/readiness.js';
export { cloudRunJob } from './job/run-job.js';
export type { RunWorker } from './job/run-worker.js';
export { runValidation, type RunValidation } from './validate/validate-run.js';

// Whether a device has an active run: the devices module's busy checks, and the jobs that hold a device
export { deviceHasActiveRun } from './cloud-runs/active-run.js';

// The sandbox, announced at start-up and on the operator's status page
export { announceRunSandbox, runSandboxWarning } from './runner/sandbox/announce.js';

// Run traces as the run_trace tool and the authoring agent read them
export type { TraceService } from './trace/service.js';
export { RunTrace, RunTraceToolInput } from './trace/schemas.js';

// The cloud run record as the routes and the tool server answer it
export { CloudRun, CloudRunRef } from './cloud-runs/schemas.js';

// Block programs: macros validate them, the marketplace freezes them
export { type Step, countSteps } from './blocks/program-types.js';
export { blockProgramRules, parseBlockProgram, validateBlockProgram } from './blocks/validate.js';
export { canonicalJson } from './blocks/canonical-json.js';

// A run's bundle, for the executor tests
export { bundleForMacro } from './executor/bundle.js';
