// A child process in its own process group (spawned detached, so setsid makes it the group
// leader), so that a stop or a time-out reaches everything the macro started: SIGTERM to the
// whole group, SIGKILL to what is left after a grace period. When the leader exits, whatever
// it left behind in its group is killed at once: the run is over, and a stray child holding
// the output pipes open would otherwise keep the run from ending.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';

export const KILL_GRACE_MS = 5000;
/** How long output may still arrive after the leader exited. */
const PIPE_DRAIN_MS = 2000;

export interface GroupExit {
  /** The leader's exit code, or 128 + the signal number when a signal ended it (as a shell reports it). */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all. */
  spawnError?: Error;
}

export interface SpawnedGroup {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** SIGTERM now, SIGKILL after `graceMs` if anything of the group is still alive. */
  terminate(graceMs?: number): void;
  /** Resolves when the leader has exited and both output streams have ended. */
  done: Promise<GroupExit>;
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

export interface GroupOptions {
  cwd: string;
  env: Record<string, string>;
  /** Who the process runs as; the service's own user when absent. */
  user?: { uid: number; gid: number };
}

export function spawnGroup(argv: string[], options: GroupOptions): SpawnedGroup {
  const [command, ...args] = argv;
  // The command is looked up in options.env.PATH (RUN_PATH), never the server's PATH. With a
  // user, libuv drops the supplementary groups (setgroups), then sets the gid and the uid, in
  // the child before exec: nothing runs as the service's user.
  const ids = options.user ? { uid: options.user.uid, gid: options.user.gid } : {};
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...ids });
  let killTimer: NodeJS.Timeout | undefined;
  let exited = false;
  const done = new Promise<GroupExit>((resolve) => {
    let exit: GroupExit | undefined;
    child.once('error', (error) => {
      // Spawning failed (no python3 on RUN_PATH): no exit event follows.
      if (!exited) {
        exited = true;
        resolve({ exitCode: null, signal: null, spawnError: error });
      }
    });
    child.once('exit', (code, signal) => {
      exited = true;
      // Anything the macro left running in its group dies with the run.
      signalGroup(child.pid, 'SIGKILL');
      exit = { exitCode: code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : null), signal };
      const ended = exit;
      // A process that left the group (setsid) may still hold the pipes: stop reading after a while.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        resolve(ended);
      }, PIPE_DRAIN_MS).unref();
    });
    child.once('close', () => {
      clearTimeout(killTimer);
      if (exit) resolve(exit);
    });
  });
  return {
    child,
    done,
    terminate(graceMs = KILL_GRACE_MS) {
      if (exited || killTimer) return;
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), graceMs);
    },
  };
}
