// Table types of run traces (migration 0027, modules/runs/trace).
import type { ColumnType } from 'kysely';

/** One cloud run's trace (decisions.md §17), keyed by its history record. */
export interface RunTracesTable {
  execution_pk: number;
  user_id: number;
  run_id: number;
  /** Wall-clock ms when recording began: steps' at_ms count from here. */
  started_ms: number;
  ended_at: number | null;
  frames_capped: ColumnType<number, number | undefined, number>;
  /** The device's screen in pixels (element bounds are in them); null when it could not be read. */
  screen_width: ColumnType<number | null, number | null | undefined, number | null>;
  screen_height: ColumnType<number | null, number | null | undefined, number | null>;
  final_frame: string | null;
  /** JSON: the UI tree when a failed run ended. */
  final_ui_tree: string | null;
  /** JSON array of sentences: writes that failed. */
  notes: ColumnType<string, string | undefined, string>;
  created_at: number;
}

export interface RunTraceStepsTable {
  execution_pk: number;
  seq: number;
  /** JSON: one TraceStep. */
  body: string;
}

/** Which trace shows which picture (migration 0029): a frame is stored once for every trace. */
export interface RunTraceFramesTable {
  execution_pk: number;
  frame_id: string;
}

/** A frame's picture, once, by the id of its pixels; swept when no trace shows it. */
export interface RunTracePicturesTable {
  frame_id: string;
  /** JPEG, longest edge 720 px, quality 70. */
  content: Buffer;
  size_bytes: number;
  created_at: number;
}
