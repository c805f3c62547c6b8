// The run-trace settings (decisions.md §17; docs/configuration.md): which cloud runs keep a
// trace, how many frames one trace keeps, and for how many days. Read by config.ts with the
// rest of the environment, validated the same way: a bad value stops start-up naming it. It
// sits in lib/, as the sandbox's settings do, because config.ts may import no module but
// through its front door, and the runs module's front door imports config.ts back; the runs
// module sees them as Config['runTrace'] (modules/runs/trace/settings.ts).
import { ConfigError } from './config-error.js';
import { type Env, integer } from './env-settings.js';

/** `on`: every cloud run; `failures`: kept only when the run ends `failed` or `stopped`; `off`: none. */
export type RunTraceMode = 'on' | 'failures' | 'off';

export interface RunTraceSettings {
  /** RUN_TRACE */
  mode: RunTraceMode;
  /** RUN_TRACE_MAX_FRAMES: pictures one trace keeps; later steps are kept without them. */
  maxFrames: number;
  /** RUN_TRACE_DAYS: a trace is deleted this many days after its run started. */
  days: number;
}

const MODES: RunTraceMode[] = ['on', 'failures', 'off'];

export function runTraceSettings(env: Env): RunTraceSettings {
  const mode = (env.RUN_TRACE || 'on').trim().toLowerCase();
  if (!MODES.includes(mode as RunTraceMode)) throw new ConfigError('RUN_TRACE', `must be on, failures or off, got "${env.RUN_TRACE}"`);
  return {
    mode: mode as RunTraceMode,
    maxFrames: integer(env, 'RUN_TRACE_MAX_FRAMES', 500, 0, 100_000),
    days: integer(env, 'RUN_TRACE_DAYS', 14, 1, 3650),
  };
}
