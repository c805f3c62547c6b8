// What a run trace holds (decisions.md §17): one step per device action a run performed, in
// order, and the frames its steps name. The recorder (recorder.ts) makes them; the runs
// module stores them through a TraceWriter and serves them, in exactly this shape.
import type { Bounds } from '../../hosts/types.js';

/** The element an action acted on, as the trace shows it. */
export interface TraceElement {
  text: string;
  resource_id: string;
  desc: string;
  class: string;
  bounds: Bounds;
}

export interface TraceStep {
  seq: number;
  /** Since the run started. */
  at_ms: number;
  duration_ms: number;
  /** The catalogue name without `device_` (`tap`, `app_open`), or an SDK function's own name (`current_app`, `wait`). */
  action: string;
  /** As called, with secret typed text replaced by "•••". */
  args: Record<string, unknown>;
  element?: TraceElement;
  outcome: 'ok' | 'error';
  error?: { code: string; message: string };
  frame_before?: string;
  frame_after?: string;
  /** The interrupts handled while the action waited (§16), as the run's log names them. */
  interrupts: string[];
  /** Block programs: the step's path in the program (`steps.3.then.0`). */
  block_path?: string;
}

/** A stored picture: JPEG, longest edge 720 px, quality 70. Its id names its pixels. */
export interface TraceFrame {
  id: string;
  jpeg: Buffer;
}

export interface TraceBatch {
  steps: TraceStep[];
  frames: TraceFrame[];
  /** RUN_TRACE_MAX_FRAMES was reached: later pictures were not kept. */
  framesCapped: boolean;
}

/** Where a recorder's batches go (the runs module's trace store). */
export interface TraceWriter {
  write(batch: TraceBatch): Promise<void>;
  /** A sentence for the trace's `notes` (a batch that could not be stored). */
  note(message: string): Promise<void>;
}

/** One action to trace: its name and arguments as the caller gave them. */
export interface StepCall {
  action: string;
  args: Record<string, unknown>;
  blockPath?: string;
}
