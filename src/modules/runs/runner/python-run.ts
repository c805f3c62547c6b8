// Runs a Python macro (decisions.md §10): its pinned snapshot unpacked into a private folder,
// `python3 <entry> <arguments>` in its own process group with the run's environment and
// nothing else of the server's, under the memory and time limits; stdout and stderr become
// log lines as they come. Stop and time-out end the whole group (SIGTERM, SIGKILL 5 s
// later). Exit 0 is `finished`; anything else `failed`, with the exit code and the last
// stderr line. The folder is removed however the run ends. When the service is root the
// process runs as another user, without supplementary groups: a uid of the run's own
// (RUN_UIDS), whose processes are all killed when the run ends, or RUN_AS_USER. With the
// sandbox (RUN_SANDBOX, sandbox/), the process runs inside bubblewrap, reaching out only
// through the bridges the runner opens for it; past RUN_MAX_LOG_MB its lines are dropped.
import { ValidationError } from '../../../core/errors.js';
import type { RunAs, RunUser } from '../../../lib/run-user.js';
import { pythonCommand } from '../arguments/command-line.js';
import type { RunArgs } from '../arguments/merge.js';
import { LineSplitter } from '../logs/line-splitter.js';
import type { LogShipper } from '../logs/log-shipper.js';
import { failed, finished, type RunOutcome, stopped, timeLimitPassed } from '../outcome.js';
import { type AdbTarget, buildRunEnvironment } from './environment.js';
import { limitedCommand, looksOutOfMemory } from './limits.js';
import { KILL_GRACE_MS, spawnGroup } from './process-group.js';
import { copySdk, createRunDirectory, hasEntry, prepareRunsDir, unpackSnapshot } from './run-directory.js';
import { leaseRunUser, type RunUserLease } from './run-user-lease.js';
import { messageOf } from '../../../lib/error-message.js';
import type { Resolver } from '../../../lib/address-policy.js';
import type { RunSandboxSettings } from '../../../config.js';
import { LogLimit } from './log-limit.js';
import { launchInSandbox } from './sandbox/sandboxed-launch.js';
import { sandboxStatus } from './sandbox/sandbox-status.js';

export const STDERR_PREFIX = '[stderr] ';

export interface PythonRunSettings {
  /** RUNS_DIR */
  runsDir: string;
  /** RUN_MAX_SECONDS */
  maxSeconds: number;
  /** RUN_MAX_MEMORY_MB */
  maxMemoryMb: number;
  /** RUN_PATH */
  path: string;
  /** The folder holding `svc_device`. */
  sdkDir: string;
  /** RUN_AS_USER and RUN_UIDS, resolved: whom the process switches to; absent or null: the service's own user. */
  runAs?: RunAs | null;
  /** Between SIGTERM and SIGKILL; 5 s unless a test shortens it. */
  killGraceMs?: number;
  /** RUN_SANDBOX and the sandbox's limits (RUN_MAX_LOG_MB also applies unsandboxed); absent: neither. */
  sandbox?: RunSandboxSettings;
  /** The egress proxy's name resolver; the system's unless a test controls it. */
  resolver?: Resolver;
}

export interface PythonRunInput {
  executionId: string;
  zip: Buffer;
  entryPath: string;
  args: RunArgs;
  deviceUrl: string;
  token: string;
  adb?: AdbTarget;
  proxyUrl?: string;
  logs: LogShipper;
  /** Aborting stops the run (`stopped`). */
  signal?: AbortSignal;
  /** Called once the process has started; awaited before the outcome is returned. */
  onStarted?: () => void | Promise<void>;
}

export async function runPython(settings: PythonRunSettings, input: PythonRunInput): Promise<RunOutcome> {
  let command: string[];
  try {
    command = pythonCommand(input.entryPath, input.args);
  } catch (error) {
    if (error instanceof ValidationError) return failed(`the run's arguments cannot be passed: ${error.message}`);
    throw error;
  }
  if (input.signal?.aborted) return stopped();
  const status = settings.sandbox ? await sandboxStatus({ sandbox: settings.sandbox, runAs: settings.runAs, path: settings.path }) : null;
  if (status && !status.sandboxed && status.mode === 'required') return failed(`the run sandbox cannot be made on this machine: ${status.message}`);
  try {
    await prepareRunsDir(settings.runsDir, Boolean(settings.runAs));
  } catch (error) {
    return failed(`the run's private folder could not be made: ${messageOf(error)}`);
  }
  let lease: RunUserLease;
  try {
    lease = await leaseRunUser(settings.runsDir, settings.runAs);
  } catch (error) {
    return failed(`no user could be found for the run: ${messageOf(error)}`);
  }
  try {
    return await inRunDirectory(settings, input, command, lease, status?.sandboxed === true);
  } finally {
    await lease.release();
  }
}

async function inRunDirectory(settings: PythonRunSettings, input: PythonRunInput, command: string[], lease: RunUserLease, sandboxed: boolean): Promise<RunOutcome> {
  const runUser = lease.user;
  let dir;
  try {
    dir = await createRunDirectory(settings.runsDir, input.executionId, runUser);
  } catch (error) {
    return failed(`the run's private folder could not be made: ${messageOf(error)}`);
  }
  try {
    try {
      await unpackSnapshot(input.zip, dir.work);
    } catch (error) {
      return failed(`the code snapshot could not be unpacked: ${messageOf(error)}`);
    }
    if (!(await hasEntry(dir.work, input.entryPath))) return failed(`the entry file ${input.entryPath} is not in the code snapshot`);
    try {
      await dir.handOver();
    } catch (error) {
      return failed(`the run's private folder could not be given to the run's user: ${messageOf(error)}`);
    }
    let sdkDir: string;
    try {
      sdkDir = await copySdk(settings.sdkDir, dir.root);
    } catch (error) {
      return failed(`the Python SDK could not be copied into the run's folder: ${messageOf(error)}`);
    }
    if (!(sandboxed && settings.sandbox)) {
      const env = buildRunEnvironment({ ...input, path: settings.path, home: dir.home, sdkDir });
      return await supervise(settings, input, limitedCommand(command, settings.maxMemoryMb), { cwd: dir.work, env, user: runUser });
    }
    let launch;
    try {
      const env = { ...input, path: settings.path };
      launch = await launchInSandbox({ sandbox: settings.sandbox, resolver: settings.resolver, maxMemoryMb: settings.maxMemoryMb, root: dir.root, codeDir: dir.work, sdkDir, user: runUser, command, env });
    } catch (error) {
      return failed(`the run's sandbox could not be prepared: ${messageOf(error)}`);
    }
    try {
      return await supervise(settings, input, launch.argv, { cwd: dir.work, env: launch.env, user: runUser });
    } finally {
      await launch.close();
    }
  } finally {
    // Nothing of the run may still write in its folders while they are emptied.
    await lease.endProcesses();
    await dir.remove();
  }
}

async function supervise(settings: PythonRunSettings, input: PythonRunInput, argv: string[], options: { cwd: string; env: Record<string, string>; user: RunUser | null }): Promise<RunOutcome> {
  const group = spawnGroup(argv, { ...options, user: options.user ?? undefined });
  const started = Promise.resolve().then(() => input.onStarted?.());
  // Keep the rejection for the await below, without an unhandled-rejection warning meanwhile.
  started.catch(() => undefined);

  let lastStderr: string | null = null;
  const streams = [group.child.stdout, group.child.stderr];
  const limit = settings.sandbox ? new LogLimit(settings.sandbox.maxLogMb) : null;
  const push = (line: string) => {
    if (limit && !limit.admit(line)) return;
    if (!input.logs.push(line)) {
      // The store is behind: the run waits (its writes block) until the backlog drains.
      for (const stream of streams) stream.pause();
      void input.logs.drained().then(() => streams.forEach((stream) => stream.resume()));
    }
  };
  const out = new LineSplitter(push);
  const err = new LineSplitter((line) => {
    const text = line.slice(STDERR_PREFIX.length);
    if (text.trim() !== '') lastStderr = text;
    push(line);
  }, { prefix: STDERR_PREFIX });
  group.child.stdout.on('data', (chunk: Buffer) => out.write(chunk));
  group.child.stderr.on('data', (chunk: Buffer) => err.write(chunk));

  let ending: 'stop' | 'time' | null = null;
  const end = (why: 'stop' | 'time') => {
    ending ??= why;
    group.terminate(settings.killGraceMs ?? KILL_GRACE_MS);
  };
  const onAbort = () => end('stop');
  input.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => end('time'), settings.maxSeconds * 1000);

  const exit = await group.done;
  clearTimeout(timer);
  input.signal?.removeEventListener('abort', onAbort);
  out.end();
  err.end();
  const dropped = limit?.summary();
  if (dropped) input.logs.push(dropped);
  await started;

  if (exit.spawnError) {
    const as = options.user ? `, the run's user is ${options.user.name}, uid ${options.user.uid}` : '';
    return failed(`python3 could not be started: ${exit.spawnError.message} (RUN_PATH is ${settings.path}${as})`);
  }
  if (ending === 'stop') return stopped(exit.exitCode);
  if (ending === 'time') return { ...timeLimitPassed(settings.maxSeconds), exitCode: exit.exitCode };
  if (exit.exitCode === 0) return finished(0);
  if (looksOutOfMemory(lastStderr)) {
    const message = `memory limit exceeded: the run needed more than ${settings.maxMemoryMb} MB (RUN_MAX_MEMORY_MB)`;
    return failed(message, { exitCode: exit.exitCode });
  }
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.exitCode}`;
  return failed(`the macro ${how}`, { exitCode: exit.exitCode, errorMessage: lastStderr ?? `the macro ${how}` });
}
