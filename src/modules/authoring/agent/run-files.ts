// run_files (decisions.md §13): installs the session's files as its macro's code snapshot
// with code sync's rules (the entry it picks, §5),
// runs that macro as a real cloud run on the session's device through the runs module's
// front door (the session's own lease does not stand in its way), waits until it ends (at
// most 5 minutes; then it is stopped), and answers the outcome with the last 50 log lines.
import { setTimeout as sleep } from 'node:timers/promises';
import { RUN_WAIT_MS } from '../session-job.js';
import { ENTRY_RULE, entryOf } from './project-files.js';
import { redactSecrets } from './redact.js';
import type { ToolScene } from './tool-runner.js';
import { type ToolOutcome, toolError } from './tool-outcome.js';

const ENDED = new Set(['finished', 'failed', 'stopped']);
const POLL_MS = 200;
export const LOG_TAIL_LINES = 50;

export async function runFiles(scene: ToolScene, args: Record<string, unknown> | undefined): Promise<ToolOutcome> {
  const { ctx, ports } = scene;
  if (scene.deviceId === null || scene.leaseId === null) return toolError('this session has no device to run on; finish with the files, or ask the person.');
  if (scene.macroId === null) return toolError("the session's macro was deleted; nothing can be installed.");
  // Installed with code sync's own rules: no entry is named, so code sync picks it (§5) and
  // the run starts what it picked, as a run of a snapshot uploaded by hand would.
  if (entryOf(scene.files) === null) return toolError(`the project has no .py file to run: write one first (${ENTRY_RULE}).`);
  const { entry_path: entry } = await ports.installFiles(ctx, scene.macroId, scene.files);
  const run = await ports.startRun(ctx, { deviceId: scene.deviceId, macroId: scene.macroId, underLease: scene.leaseId, ...(args ? { args } : {}) });
  const deadline = performance.now() + RUN_WAIT_MS;
  let current = run;
  let cutShort: string | null = null;
  while (!ENDED.has(current.state)) {
    if (scene.signal.aborted || performance.now() > deadline) {
      cutShort = scene.signal.aborted ? 'the session was stopped' : 'the run took longer than 5 minutes and was stopped';
      await ports.stopRun(ctx, current.id);
      break;
    }
    await sleep(POLL_MS, undefined, { signal: scene.signal }).catch(() => undefined);
    current = await ports.getRun(ctx, run.id);
  }
  if (cutShort !== null) {
    // Give the stop a moment to land, so the outcome below is the run's last word.
    for (let i = 0; i < 50 && !ENDED.has(current.state); i += 1) {
      await sleep(POLL_MS);
      current = await ports.getRun(ctx, run.id);
    }
  }
  const outcome = await ports.runOutcome(ctx, run.execution_id);
  const tail = (await ports.logTail(ctx, run.execution_id, LOG_TAIL_LINES)).map((line) => redactSecrets(line));
  const answer = {
    state: current.state,
    entry,
    exit_code: outcome.exit_code,
    error_message: outcome.error_message === null ? (current.state_message ?? null) : redactSecrets(outcome.error_message),
    log_tail: tail,
    ...(cutShort ? { note: cutShort } : {}),
  };
  const summary = `run ${run.execution_id}: ${current.state}${outcome.exit_code !== null ? ` (exit ${outcome.exit_code})` : ''}${answer.error_message ? ` — ${answer.error_message}` : ''}`;
  return { content: JSON.stringify(answer), summary };
}
