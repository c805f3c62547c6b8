// The recorder's records as the contract between its API and the console states them
// (/api/hosted/…/recording(s), decisions.md §18): a recording, its steps and a step's
// selector candidates. Selectors are §16's selector objects, kept open: the console shows
// every key it is given, and knows the words for the ones the recorder picks.
export type Selector = Record<string, string | number | boolean>;

export interface Point {
  x: number;
  y: number;
}

export type CandidateKind = 'resource_id' | 'text' | 'desc' | 'indexed' | 'image' | 'coordinates';

export interface Candidate {
  selector: Selector | null;
  kind: CandidateKind;
}

/** A candidate as `GET …/steps/{seq}/candidates` answers it: with how many elements it matches now. */
export interface CandidateNow extends Candidate {
  matches: number;
}

export type StepAction = 'tap' | 'long_press' | 'swipe' | 'type' | 'key' | 'wait_for';

export interface RecordedElement {
  text?: string | null;
  resource_id?: string | null;
  desc?: string | null;
  class?: string | null;
  bounds?: { left: number; top: number; right: number; bottom: number } | null;
}

export interface RecordedStep {
  seq: number;
  action: StepAction;
  selector: Selector | null;
  x?: number;
  y?: number;
  fragile: boolean;
  candidates: Candidate[];
  /** The index into `candidates` of `selector`; -1 for a step with no target. */
  chosen: number;
  text?: string;
  key?: string;
  from?: Point;
  to?: Point;
  ms?: number;
  element?: RecordedElement | null;
  /** A tap on a dialog's button: the saved macro handles the dialog whenever it shows (an interrupt, §16). */
  interrupt?: boolean;
  frame_url: string;
}

export interface Recording {
  id: string;
  device_id: number;
  state: 'recording' | 'stopped';
  started_at: string;
  ended_at: string | null;
  expires_at: string;
  steps: RecordedStep[];
}

export type RecorderKey = 'BACK' | 'HOME' | 'ENTER';

export type RecorderInput =
  | ({ type: 'tap' } & Point)
  | ({ type: 'long_press'; ms?: number } & Point)
  | { type: 'swipe'; from: Point; to: Point; ms?: number }
  | { type: 'text'; text: string }
  | { type: 'key'; key: RecorderKey };

export type SaveKind = 'block' | 'python';

/** The part of the saved macro record (as `POST /api/macros` answers) the recorder shows. */
export interface SavedMacro {
  id: number;
  name: string;
  kind: string;
}

/** The part of the cloud run record (as `POST /api/hosted/devices/{id}/run` answers) replay needs. */
export interface ReplayRun {
  id: number;
  execution_id: string;
}
