// How a run ended, as the cloud run and its history record record it (decisions.md §3, §10):
// the cloud run's end state with its `state_message`, and the history record's status, exit
// code and `error_message`, which move together under one execution id.
import { ERROR_MESSAGE_MAX } from '../executions/index.js';

export const RUN_END_STATES = ['finished', 'failed', 'stopped'] as const;
export type RunEndState = (typeof RUN_END_STATES)[number];

/** The run history status that goes with each end state. */
export const HISTORY_STATUS = { finished: 'completed', failed: 'failed', stopped: 'stopped' } as const satisfies Record<RunEndState, 'completed' | 'failed' | 'stopped'>;

export interface RunOutcome {
  state: RunEndState;
  /** The process's exit code (128 + n when signal n ended it); null for block programs and runs that never started. */
  exitCode: number | null;
  /** For the history record: the last stderr line, the failing step, or the limit that was passed. */
  errorMessage: string | null;
  /** For the cloud run: why it ended, in a sentence. */
  stateMessage: string | null;
}

/** Cut where the message is made, with an ellipsis, so the history's own cut never applies. */
const cap = (text: string) => (text.length > ERROR_MESSAGE_MAX ? `${text.slice(0, ERROR_MESSAGE_MAX - 1)}…` : text);

export const finished = (exitCode: number | null = null): RunOutcome => ({ state: 'finished', exitCode, errorMessage: null, stateMessage: null });

export const stopped = (exitCode: number | null = null, stateMessage = 'stopped on request'): RunOutcome => ({ state: 'stopped', exitCode, errorMessage: null, stateMessage });

export function failed(stateMessage: string, options: { exitCode?: number | null; errorMessage?: string | null } = {}): RunOutcome {
  return { state: 'failed', exitCode: options.exitCode ?? null, errorMessage: cap(options.errorMessage ?? stateMessage), stateMessage: cap(stateMessage) };
}

export const timeLimitPassed = (maxSeconds: number) => failed(`time limit exceeded: the run was still going after ${maxSeconds} s (RUN_MAX_SECONDS)`);
