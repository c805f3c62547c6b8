// The recorder's route schemas (decisions.md §18; the contract agreed with the console in
// ../recorder-contract.md): one schema per route serves validation, types and OpenAPI.
import { type Static, Type } from 'typebox';
import { DateTime, Id, Nullable, StringEnum } from '../../core/schema.js';
import { RECORDING_STATES } from '../../core/values.js';
import { Macro } from '../macros/index.js';
import { Selector } from '../devices/index.js';
import { CANDIDATE_KINDS } from './selectors.js';

export const STEP_ACTIONS = ['tap', 'long_press', 'swipe', 'type', 'key', 'wait_for'] as const;
export type StepAction = (typeof STEP_ACTIONS)[number];
export const RECORDED_KEYS = ['BACK', 'HOME', 'ENTER'] as const;
export const MAX_TEXT = 10_000;
export const MAX_PRESS_MS = 60_000;

const Coordinate = Type.Integer({ minimum: 0, maximum: 100_000, description: 'Device pixels' });
export const PointSchema = Type.Object({ x: Coordinate, y: Coordinate }, { additionalProperties: false });
const Bounds = Type.Object({ left: Type.Integer(), top: Type.Integer(), right: Type.Integer(), bottom: Type.Integer() });

export const CandidateSchema = Type.Object({
  selector: Type.Union([Selector, PointSchema], { description: 'A §16 selector (`{image_id}` for a crop), or `{x, y}` for coordinates' }),
  kind: StringEnum(CANDIDATE_KINDS),
});

export const RecordedStep = Type.Object(
  {
    seq: Type.Integer({ description: '1, 2, … in recording order (gaps after deletes)' }),
    action: StringEnum(STEP_ACTIONS),
    selector: Nullable(Selector),
    x: Type.Optional(Type.Integer()),
    y: Type.Optional(Type.Integer()),
    fragile: Type.Boolean({ description: 'True when the target is coordinates (the last resort)' }),
    candidates: Type.Array(CandidateSchema),
    chosen: Type.Integer({ description: 'The index into candidates of `selector`; -1 for a step with no target (swipe, key, text with no focused field)' }),
    text: Type.Optional(Type.String()),
    key: Type.Optional(Type.String()),
    from: Type.Optional(PointSchema),
    to: Type.Optional(PointSchema),
    ms: Type.Optional(Type.Integer()),
    element: Type.Optional(Nullable(Type.Object({ text: Type.String(), resource_id: Type.String(), desc: Type.String(), class: Type.String(), bounds: Bounds }))),
    interrupt: Type.Optional(Type.Boolean({ description: "True on a tap of a dialog's button: a saved macro handles the dialog as an interrupt (decisions.md §16) whenever it shows" })),
    frame_url: Type.String({ description: 'The screen just before the input (JPEG)' }),
  },
  { $id: 'RecordedStep' },
);
export type RecordedStep = Static<typeof RecordedStep>;

/** A macro saved from a recording, as it was saved. */
export const SavedMacroSchema = Type.Object({ id: Type.Integer(), name: Type.String(), kind: StringEnum(['block', 'python'] as const) }, { additionalProperties: false });
export type SavedMacro = Static<typeof SavedMacroSchema>;

export const Recording = Type.Object(
  {
    id: Type.String({ description: '`rec_` + 24 lowercase hex' }),
    device_id: Type.Integer(),
    state: StringEnum(RECORDING_STATES),
    started_at: DateTime(),
    ended_at: Nullable(DateTime()),
    expires_at: DateTime({ description: 'When the hold on the device ends unless another input extends it (15 minutes after the last)' }),
    steps: Type.Array(RecordedStep),
    saved: Type.Array(SavedMacroSchema, { description: 'The macros saved from this recording, in the order saved (as they were named then): what Replay can run' }),
  },
  { $id: 'Recording' },
);

/** The device's recording under way, or null: a device not being recorded is no error (a console opening the device asks). */
export const CurrentRecording = Type.Object({ recording: Nullable(Recording) }, { $id: 'CurrentRecording', additionalProperties: false });
export type RecordingRecord = Static<typeof Recording>;

export const StepAnswer = Type.Object({ step: RecordedStep }, { $id: 'RecordedStepAnswer' });

export const RecordingParams = Type.Object({ rid: Type.String({ pattern: '^rec_[0-9a-f]{24}$', description: 'A recording id' }) });
export const StepParams = Type.Object({ rid: RecordingParams.properties.rid, seq: Type.Integer({ minimum: 1, maximum: 1_000_000 }) });

export const InputBody = Type.Union(
  [
    Type.Object({ type: Type.Literal('tap'), x: Coordinate, y: Coordinate }, { additionalProperties: false, title: 'tap' }),
    Type.Object({ type: Type.Literal('long_press'), x: Coordinate, y: Coordinate, ms: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PRESS_MS })) }, { additionalProperties: false, title: 'long_press' }),
    Type.Object({ type: Type.Literal('swipe'), from: PointSchema, to: PointSchema, ms: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PRESS_MS })) }, { additionalProperties: false, title: 'swipe' }),
    Type.Object({ type: Type.Literal('text'), text: Type.String({ minLength: 1, maxLength: MAX_TEXT }) }, { additionalProperties: false, title: 'text' }),
    Type.Object({ type: Type.Literal('key'), key: StringEnum(RECORDED_KEYS) }, { additionalProperties: false, title: 'key' }),
  ],
  { description: 'One input on the live view' },
);
export type InputBody = Static<typeof InputBody>;

export const CheckBody = Type.Object({ x: Coordinate, y: Coordinate }, { additionalProperties: false });
export const ChooseBody = Type.Object({ chosen: Type.Integer({ minimum: 0, maximum: 100 }) }, { additionalProperties: false });
export const SaveBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }), kind: StringEnum(['block', 'python'] as const) },
  { additionalProperties: false },
);
export type SaveInput = Static<typeof SaveBody>;
export const ReplayBody = Type.Object({ macro_id: Id('The saved macro to run') }, { additionalProperties: false });

export const CandidateList = Type.Object(
  { items: Type.Array(Type.Object({ selector: CandidateSchema.properties.selector, kind: CandidateSchema.properties.kind, matches: Type.Integer({ description: 'How many elements it names on the screen now' }) })) },
  { $id: 'RecordedStepCandidates' },
);

export { Macro };
