// The run sandbox's settings (decisions.md §10, "The sandbox"; docs/runs.md): whether Python
// runs are sandboxed (RUN_SANDBOX) and the limits the sandbox holds them to. Read by config.ts.
import { ConfigError } from './config-error.js';
import { boolean, type Env, integer } from './env-settings.js';

/** `auto`: sandbox when bubblewrap works here, else run unsandboxed with a warning; `required`: no sandbox, no Python runs; `off`: never. */
export type RunSandboxMode = 'auto' | 'required' | 'off';

export interface RunSandboxSettings {
  /** RUN_SANDBOX */
  mode: RunSandboxMode;
  /** RUN_MAX_PROCESSES: processes and threads of one run at once. */
  maxProcesses: number;
  /** RUN_MAX_DISK_MB: what one run may write in its folders and /tmp together. */
  maxDiskMb: number;
  /** RUN_MAX_LOG_MB: log text stored per run; later lines are dropped and counted. */
  maxLogMb: number;
  /** RUN_ALLOW_PRIVATE_NETWORKS: the egress proxy lets runs reach private addresses (never the host's own). */
  allowPrivateNetworks: boolean;
}

const MODES: RunSandboxMode[] = ['auto', 'required', 'off'];

export function runSandboxSettings(env: Env): RunSandboxSettings {
  const mode = (env.RUN_SANDBOX || 'auto').trim().toLowerCase();
  if (!MODES.includes(mode as RunSandboxMode)) throw new ConfigError('RUN_SANDBOX', `must be auto, required or off, got "${env.RUN_SANDBOX}"`);
  return {
    mode: mode as RunSandboxMode,
    maxProcesses: integer(env, 'RUN_MAX_PROCESSES', 256, 8, 1_000_000),
    maxDiskMb: integer(env, 'RUN_MAX_DISK_MB', 1024, 8, 1_048_576),
    maxLogMb: integer(env, 'RUN_MAX_LOG_MB', 64, 1, 1_048_576),
    allowPrivateNetworks: boolean(env, 'RUN_ALLOW_PRIVATE_NETWORKS', false),
  };
}
