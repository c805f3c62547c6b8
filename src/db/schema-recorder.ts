// Table types of the recorder (migration 0028, modules/recorder).
import type { ColumnType } from 'kysely';
import type { RecordingState } from '../core/values.js';

export interface RecordingsTable {
  /** `rec_` + 24 lowercase hex. */
  id: string;
  user_id: number;
  device_id: number;
  lease_id: string;
  state: RecordingState;
  next_seq: ColumnType<number, number | undefined, number>;
  started_at: number;
  ended_at: number | null;
  expires_at: number;
  /** JSON: the macros saved from the recording, `{id, name, kind}` in the order saved. */
  saved: ColumnType<string, string | undefined, string>;
}

export interface RecordingStepsTable {
  recording_id: string;
  seq: number;
  /** JSON: one recorded step (modules/recorder/schemas.ts). */
  body: string;
  /** JPEG: the screen just before the input; null when it could not be taken. */
  frame: Buffer | null;
  created_at: number;
}
