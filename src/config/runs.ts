// The runs module's settings (decisions.md §10, §17; docs/runs.md, docs/configuration.md),
// composed by config.ts with the rest: whether cloud runs run and how many at once, a run's
// folder, limits, PATH and user; the sandbox that holds a Python run (RUN_SANDBOX and its
// limits); and which runs keep a trace (RUN_TRACE). The runs module sees them through the
// Config type (Config['runSandbox'], Config['runTrace']).
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { ConfigError } from '../lib/config-error.js';
import { boolean, type Env, integer } from '../lib/env-settings.js';
import { type RunAs, runAsFor, type ServiceIdentity } from '../lib/run-user.js';

/** The standard system folders: a run finds `python3` there, and nothing of the server's own PATH. */
export const DEFAULT_RUN_PATH = '/usr/local/bin:/usr/bin:/bin';

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

const SANDBOX_MODES: RunSandboxMode[] = ['auto', 'required', 'off'];

function runSandboxSettings(env: Env): RunSandboxSettings {
  const mode = (env.RUN_SANDBOX || 'auto').trim().toLowerCase();
  if (!SANDBOX_MODES.includes(mode as RunSandboxMode)) throw new ConfigError('RUN_SANDBOX', `must be auto, required or off, got "${env.RUN_SANDBOX}"`);
  return {
    mode: mode as RunSandboxMode,
    maxProcesses: integer(env, 'RUN_MAX_PROCESSES', 256, 8, 1_000_000),
    maxDiskMb: integer(env, 'RUN_MAX_DISK_MB', 1024, 8, 1_048_576),
    maxLogMb: integer(env, 'RUN_MAX_LOG_MB', 64, 1, 1_048_576),
    allowPrivateNetworks: boolean(env, 'RUN_ALLOW_PRIVATE_NETWORKS', false),
  };
}

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

const TRACE_MODES: RunTraceMode[] = ['on', 'failures', 'off'];

function runTraceSettings(env: Env): RunTraceSettings {
  const mode = (env.RUN_TRACE || 'on').trim().toLowerCase();
  if (!TRACE_MODES.includes(mode as RunTraceMode)) throw new ConfigError('RUN_TRACE', `must be on, failures or off, got "${env.RUN_TRACE}"`);
  return {
    mode: mode as RunTraceMode,
    maxFrames: integer(env, 'RUN_TRACE_MAX_FRAMES', 500, 0, 100_000),
    days: integer(env, 'RUN_TRACE_DAYS', 14, 1, 3650),
  };
}

export interface RunsSettings {
  /** RUNS_ENABLED: whether cloud runs are accepted and run at all (off: 503 runs_unavailable). */
  runsEnabled: boolean;
  /** RUNS_PER_WORKER: cloud runs one process runs at the same time. */
  runsPerWorker: number;
  /** RUNS_DIR: where each run gets its private folder (the unpacked code and its HOME), removed afterwards. */
  runsDir: string;
  /** RUN_MAX_SECONDS: a run's wall-time limit. */
  runMaxSeconds: number;
  /** RUN_MAX_MEMORY_MB: a run's memory limit (the Python process's address space). */
  runMaxMemoryMb: number;
  /** RUN_PATH: the PATH a run gets (never the server's own), where `python3` is looked up. */
  runPath: string;
  /** RUN_AS_USER and RUN_UIDS, resolved: whom a run's process switches to; null when runs keep the service's user (it is not root). */
  runAs: RunAs | null;
  /** RUN_SANDBOX, RUN_MAX_PROCESSES, RUN_MAX_DISK_MB, RUN_MAX_LOG_MB, RUN_ALLOW_PRIVATE_NETWORKS. */
  runSandbox: RunSandboxSettings;
  /** RUN_TRACE, RUN_TRACE_MAX_FRAMES, RUN_TRACE_DAYS. */
  runTrace: RunTraceSettings;
}

/** A colon list of absolute folders, as PATH is written; no empty entries (they would mean the working directory). */
function searchPath(env: Env, name: string, fallback: string): string {
  const raw = (env[name] || fallback).trim();
  const parts = raw.split(':');
  const bad = parts.find((part) => !part.startsWith('/') || /[\0\n]/.test(part));
  if (bad !== undefined) throw new ConfigError(name, `must be a colon-separated list of absolute folders (like /usr/local/bin:/usr/bin:/bin); "${bad}" is not one`);
  return raw;
}

/** `identity` is who the service runs as (RUN_AS_USER and RUN_UIDS depend on it). */
export function runsSettings(env: Env, identity: ServiceIdentity): RunsSettings {
  return {
    runsEnabled: boolean(env, 'RUNS_ENABLED', true),
    runsPerWorker: integer(env, 'RUNS_PER_WORKER', 8, 1, 1000),
    runsDir: resolve(env.RUNS_DIR || join(tmpdir(), 'svc-runs')),
    runMaxSeconds: integer(env, 'RUN_MAX_SECONDS', 3600, 1, 604_800),
    runMaxMemoryMb: integer(env, 'RUN_MAX_MEMORY_MB', 512, 64, 1_048_576),
    runPath: searchPath(env, 'RUN_PATH', DEFAULT_RUN_PATH),
    runAs: runAsFor(env.RUN_AS_USER, env.RUN_UIDS, identity),
    runSandbox: runSandboxSettings(env),
    runTrace: runTraceSettings(env),
  };
}
