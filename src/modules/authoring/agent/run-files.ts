// run_files (decisions.md §13): installs the session's files as its macro's code snapshot
// with code sync's rules (the entry it picks, §5),
// runs that macro as a real cloud run on the session's device through the runs module's
// front door (the session's own lease does not stand in its way), waits until it ends (at
// most 5 minutes; then it is stopped), and answers the outcome with the last 50 log lines
// and, for a failed run, the step it failed on from its trace (decisions.md §17) with that
// step's screen, so the agent sees what the person sees on the run's page.
import { setTimeout as sleep } from 'node:timers/promises';
import { RUN_WAIT_MS } from '../session-job.js';
import { ENTRY_RULE, entryOf } from './project-files.js';
import { redactSecrets } from './redact.js';
import type { ToolScene } from './tool-runner.js';
import { type ToolOutcome, toolError } from './tool-outcome.js';

const ENDED = new Set(['finished', 'failed', 'stopped']);
const POLL_MS = 200;
export const LOG_TAIL_LINES = 50;
/** How many times run_files looks for a failed run's failed step (400 ms apart) before answering without it. */
const TRACE_LOOKS = 5;

export async function runFiles(scene: ToolScene, args: Record<string, unknown> | undefined): Promise<ToolOutcome> {
  const { ctx, ports } = scene;
  if (scene.deviceId === null || scene.leaseId === null) return toolError('this session has no device to run on; finish with the files, or ask the person.');
  if (scene.macroId === null) return toolError("the session's macro was deleted; nothing can be installed.");
  // Installed with code sync's own rules: no entry is named, so code sync picks it (§5) and
  // the run starts what it picked, as a run of a snapshot uploaded by hand would.
  if (entryOf(scene.files) === null) return toolError(`the project has no .py file to run: write one first (${ENTRY_RULE}).`);
  const { entry_path: entry } = await ports.codeSync.installFiles(ctx, { macro_id: scene.macroId, files: scene.files });
  const run = await ports.runs.start(ctx, { device_id: scene.deviceId, macro_id: scene.macroId, under_lease: scene.leaseId, ...(args ? { args } : {}) });
  const deadline = performance.now() + RUN_WAIT_MS;
  let current = run;
  let cutShort: string | null = null;
  while (!ENDED.has(current.state)) {
    if (scene.signal.aborted || performance.now() > deadline) {
      cutShort = scene.signal.aborted ? 'the session was stopped' : 'the run took longer than 5 minutes and was stopped';
      await ports.runs.stop(ctx, { id: current.id });
      break;
    }
    await sleep(POLL_MS, undefined, { signal: scene.signal }).catch(() => undefined);
    current = await ports.runs.get(ctx, { id: run.id });
  }
  if (cutShort !== null) {
    // Give the stop a moment to land, so the outcome below is the run's last word.
    for (let i = 0; i < 50 && !ENDED.has(current.state); i += 1) {
      await sleep(POLL_MS);
      current = await ports.runs.get(ctx, { id: run.id });
    }
  }
  const history = await ports.history.findByExecutionId(ctx, { execution_id: run.execution_id });
  const outcome = { exit_code: history?.exit_code ?? null, error_message: history?.error_message ?? null };
  const failedStep = current.state === 'failed' ? await failedStepOf(scene, run.execution_id) : null;
  const { lines } = await ports.runLogs.read(ctx, { execution_id: run.execution_id, max_lines: LOG_TAIL_LINES });
  const tail = lines.map((line) => redactSecrets(line));
  const answer = {
    state: current.state,
    entry,
    exit_code: outcome.exit_code,
    error_message: outcome.error_message === null ? (current.state_message ?? null) : redactSecrets(outcome.error_message),
    log_tail: tail,
    ...(failedStep ? { failed_step: JSON.parse(redactSecrets(JSON.stringify(failedStep.step))) as unknown } : {}),
    ...(cutShort ? { note: cutShort } : {}),
  };
  const summary = `run ${run.execution_id}: ${current.state}${outcome.exit_code !== null ? ` (exit ${outcome.exit_code})` : ''}${answer.error_message ? ` — ${answer.error_message}` : ''}`;
  const frame = failedStep?.frame;
  const screenshot = frame ? { base64: frame.jpeg.toString('base64'), caption: `The screen ${frame.which} step ${failedStep.step.seq} (${failedStep.step.action}), the step the run failed on.` } : undefined;
  return { content: JSON.stringify(answer), summary, ...(screenshot ? { screenshot } : {}) };
}

/**
 * The failed step, looked for a little while: a Python run's last device calls are stored by
 * the device RPC a moment after they return, which may be after the run is seen ended.
 */
async function failedStepOf(scene: ToolScene, executionId: string) {
  for (let i = 0; ; i += 1) {
    const found = await failedStep(scene, executionId);
    if (found || i >= TRACE_LOOKS) return found;
    await sleep(POLL_MS * 2);
  }
}

/** The run's failed step from its trace, with the screen before it (else after it); null when the run has no trace or no step failed. */
async function failedStep({ ports, ctx }: ToolScene, executionId: string) {
  const { trace, focus, frames } = await ports.traces.forTool(ctx, { execution_id: executionId, steps: 'failed' }).catch(() => ({ trace: null, focus: undefined, frames: [] }));
  const step = trace?.failed_step === undefined ? undefined : trace.steps.find((s) => s.seq === focus);
  if (!step) return null;
  const { frame_before: before, frame_after: after, ...shown } = step;
  const picked = frames.find((f) => f.id === before) ?? frames.find((f) => f.id === after);
  return { step: shown, frame: picked ? { jpeg: picked.jpeg, which: picked.id === before ? ('before' as const) : ('after' as const) } : null };
}
