// Whether this machine can sandbox Python runs (decisions.md §10, RUN_SANDBOX): bubblewrap is
// tried once per process with the very command a run gets (sandboxedCommand, as the uid runs
// use), running `socat -V` inside, which also proves the bridge tool is there. The answer is
// kept: start-up prints it, GET /healthz repeats it when runs are not sandboxed, and every run
// follows it (`required` and no sandbox: the run is refused).
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunAs } from '../../../../lib/run-user.js';
import type { RunSandboxSettings } from '../../../../config.js';
import { sandboxedCommand } from './bwrap-command.js';

export interface SandboxStatus {
  sandboxed: boolean;
  /** RUN_SANDBOX, and when not sandboxed whether runs are refused (`required`) or run without it (`auto`, `off`). */
  mode: RunSandboxSettings['mode'];
  /** One sentence for the operator: what applies and why. */
  message: string;
}

export interface SandboxProbeSettings {
  sandbox: Pick<RunSandboxSettings, 'mode' | 'maxDiskMb'>;
  runAs?: RunAs | null;
  /** RUN_PATH: where bwrap and socat are looked up. */
  path: string;
}

const PROBE_TIMEOUT_MS = 10_000;
const known = new Map<string, Promise<SandboxStatus>>();

/** The uid a probe runs as: one runs would use. */
function probeIds(runAs: RunAs | null | undefined): { uid: number; gid: number } {
  if (runAs?.kind === 'shared') return { uid: runAs.user.uid, gid: runAs.user.gid };
  if (runAs?.kind === 'own-uid') return { uid: runAs.range.first, gid: runAs.range.first };
  return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
}

async function probe(settings: SandboxProbeSettings): Promise<string | null> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-sandbox-probe-'));
  try {
    await chmod(dir, 0o755);
    const ids = probeIds(settings.runAs);
    const argv = sandboxedCommand({ ...ids, codeDir: dir, sdkDir: dir, ioDir: dir, diskMb: settings.sandbox.maxDiskMb }, ['socat', '-V']);
    const root = (process.getuid?.() ?? -1) === 0;
    return await new Promise<string | null>((resolve) => {
      const child = spawn(argv[0], argv.slice(1), { env: { PATH: settings.path }, stdio: ['ignore', 'ignore', 'pipe'], ...(root ? ids : {}), timeout: PROBE_TIMEOUT_MS });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.once('error', (error) => resolve(error.message));
      child.once('close', (code) => resolve(code === 0 ? null : stderr.trim().split('\n').pop() || `exited with code ${code}`));
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function decide(settings: SandboxProbeSettings): Promise<SandboxStatus> {
  const mode = settings.sandbox.mode;
  if (mode === 'off') return { sandboxed: false, mode, message: 'RUN_SANDBOX is off: Python runs are NOT sandboxed (they share the network and see the machine)' };
  const problem = await probe(settings).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
  if (problem === null) return { sandboxed: true, mode, message: `Python runs are sandboxed with bubblewrap (RUN_SANDBOX=${mode})` };
  const why = `bubblewrap could not make the run sandbox (${problem}); install the bubblewrap and socat packages and allow user namespaces`;
  return mode === 'required'
    ? { sandboxed: false, mode, message: `${why}. RUN_SANDBOX is required: Python runs are refused (503 runs_unavailable)` }
    : { sandboxed: false, mode, message: `${why}. RUN_SANDBOX is auto: Python runs are NOT sandboxed` };
}

/** The answer for these settings, tried once per process. */
export function sandboxStatus(settings: SandboxProbeSettings): Promise<SandboxStatus> {
  const ids = probeIds(settings.runAs);
  const key = JSON.stringify([settings.sandbox.mode, settings.path, ids.uid]);
  let status = known.get(key);
  if (!status) {
    status = decide(settings);
    known.set(key, status);
  }
  return status;
}
