// The run-trace settings as the runs module sees them: RUN_TRACE, RUN_TRACE_MAX_FRAMES and
// RUN_TRACE_DAYS from the one configuration (parsed and checked in config/runs.ts).
import type { Config } from '../../../config.js';

export type RunTraceSettings = Config['runTrace'];
export type RunTraceMode = RunTraceSettings['mode'];
