// Runs one claimed cloud run to its end and says how it ended. This is the whole of what a
// run worker does between its claim and its result; the job around it (the lease, the state
// and history transaction, the events) only wires it up:
//
//   claim → loadClaimedRun(…, {signal, onStarted}) → executeRun(…) → outcome and the trace's
//   end → one transaction
//
// `signal` is the stop (a `stopping` run, or a lost lease); `onStarted` is where the job moves
// the run `launching` → `running` (and emits macro.started). Log lines go to the run-log
// store as the run writes them; the outcome comes back once every line is stored.
import type { Db } from '../../../db/database.js';
import type { CloudRunsTable } from '../../../db/schema.js';
import type { Clock } from '../../../lib/clock.js';
import type { DeviceDriver } from '../../devices/index.js';
import type { RunArgs } from '../arguments/merge.js';
import { sha256OfBytes } from '../blocks/canonical-json.js';
import { type ImageFinder } from '../device/image-matching.js';
import { runBlockProgram } from '../blocks/interpreter.js';
import { parseBlockProgram } from '../blocks/validate.js';
import type { LogSink } from '../logs/log-sink.js';
import { LogShipper } from '../logs/log-shipper.js';
import { failed, type RunOutcome, stopped } from '../outcome.js';
import { issueRunToken, revokeRunToken } from '../rpc/run-tokens.js';
import type { AdbTarget } from '../runner/environment.js';
import { type PythonRunSettings, runPython } from '../runner/python-run.js';
import type { RunTrace, RunTracing, TraceEnding } from '../trace/run-tracing.js';

export const DEVICE_RPC_PATH = '/api/runs/devices';

export type RunRow = Pick<CloudRunsTable, 'execution_id' | 'user_id' | 'device_id' | 'macro_kind' | 'entry_path' | 'bundle_sha'> & { id: number };

/** Everything one run needs, gathered after the claim (load-claimed-run.ts). */
export interface ClaimedRun {
  run: RunRow;
  /** The id of the run's history record, which its logs and trace hang off. */
  historyPk: number;
  /** The pinned bundle: the zip, or the program's canonical JSON. */
  bundle: Buffer;
  /** The profile's values with the run's own `args` laid over them. */
  args: RunArgs;
  driver: DeviceDriver;
  /** On `adb` hosts: the device's serial and ADB server. */
  adb?: AdbTarget;
  /** The device's proxy as a URL, for the macro's own traffic (§10). */
  proxyUrl?: string;
  logs: LogSink;
  signal?: AbortSignal;
  onStarted?: () => void | Promise<void>;
}

export interface ExecutorDeps {
  db: Db;
  clock: Clock;
  /** RUNS_DIR, RUN_MAX_SECONDS, RUN_MAX_MEMORY_MB, RUN_PATH and the SDK folder. */
  settings: PythonRunSettings;
  /** BASE_URL: where a run's `svc_device` reaches the device RPC (any `serve` process). */
  baseUrl: string;
  /** A batch the store refused after every retry. */
  onLogsLost?: (error: unknown, lines: number) => void;
  /** Finds library images on the screen for block steps. */
  images: ImageFinder;
  /** The run's trace (§17), begun before it starts and finished once it has ended. */
  tracing?: RunTracing;
}

/** How a run ended, and its trace's end, to be stored with the run's end in one transaction. */
export interface ExecutedRun {
  outcome: RunOutcome;
  traceEnding?: TraceEnding;
}

export async function executeRun(deps: ExecutorDeps, claimed: ClaimedRun): Promise<ExecutedRun> {
  const { run } = claimed;
  if (sha256OfBytes(claimed.bundle) !== run.bundle_sha) {
    return { outcome: failed('the pinned bundle does not match its bundle_sha, so it was not run') };
  }
  const logs = new LogShipper(claimed.logs, { onLost: (error, lines) => deps.onLogsLost?.(error, lines.length) });
  const trace = deps.tracing?.begin(run, claimed.historyPk, claimed.driver);
  const python = run.macro_kind === 'python';
  let outcome: RunOutcome;
  try {
    if (python) {
      // The device RPC takes the trace over from its row: the row is there before the run's first call.
      await trace?.stored;
      outcome = await executePython(deps, claimed, logs);
    } else {
      outcome = await executeBlocks(deps, claimed, logs, trace);
    }
  } catch (error) {
    // The run could not go on: its trace ends on its own, and the error goes on to the job.
    await besideLastLogs(logs, trace && deps.tracing?.finish(run.id, trace, null, claimed.driver, python));
    throw error;
  }
  // The trace takes a failed run's last screen and UI tree while the run still holds its device.
  const traceEnding = await besideLastLogs(logs, trace && deps.tracing?.ending(run.id, trace, outcome, claimed.driver, python));
  return { outcome, traceEnding };
}

/** The last log lines are stored while `work` (the trace's end, which never fails) goes on. */
async function besideLastLogs<T>(logs: LogShipper, work: Promise<T> | undefined): Promise<T | undefined> {
  const [closed, done] = await Promise.allSettled([logs.close(), work]);
  if (closed.status === 'rejected') throw closed.reason;
  return done.status === 'fulfilled' ? done.value : undefined;
}

async function executePython(deps: ExecutorDeps, claimed: ClaimedRun, logs: LogShipper): Promise<RunOutcome> {
  const { run } = claimed;
  if (!run.entry_path) return failed('the run names no entry file');
  const token = await issueRunToken(deps.db.kysely, run.id, deps.clock.now());
  try {
    return await runPython(deps.settings, {
      executionId: run.execution_id,
      zip: claimed.bundle,
      entryPath: run.entry_path,
      args: claimed.args,
      deviceUrl: `${deps.baseUrl}${DEVICE_RPC_PATH}/${run.device_id}`,
      token,
      adb: claimed.adb,
      proxyUrl: claimed.proxyUrl,
      logs,
      signal: claimed.signal,
      onStarted: claimed.onStarted,
    });
  } finally {
    await revokeRunToken(deps.db.kysely, run.id, deps.clock.now());
  }
}

async function executeBlocks(deps: ExecutorDeps, claimed: ClaimedRun, logs: LogShipper, trace: RunTrace | undefined): Promise<RunOutcome> {
  const program = parseBlockProgram(JSON.parse(claimed.bundle.toString('utf8')), 'blocks');
  if (claimed.signal?.aborted) return stopped();
  await claimed.onStarted?.();
  return runBlockProgram({ program, driver: claimed.driver, userId: claimed.run.user_id, images: deps.images, log: (line) => logs.push(line), signal: claimed.signal, maxSeconds: deps.settings.maxSeconds, tracer: trace?.recorder });
}
