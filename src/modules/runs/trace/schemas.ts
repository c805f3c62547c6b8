// The trace as the routes and the run_trace tool answer it (decisions.md §17): one schema
// serves validation, the OpenAPI description and the tool's output schema.
import { type Static, Type } from 'typebox';
import { Nullable, StringEnum } from '../../../core/schema.js';
import { UiElementWithCenter } from '../../devices/index.js';
import { ExecutionIdString } from '../../executions/index.js';

export const FrameId = Type.String({ pattern: '^fr_[0-9a-f]{24}$', description: 'A frame of the trace: `fr_` + 24 hex of the SHA-256 of its pixels' });

export const TraceParams = Type.Object({ execution_id: ExecutionIdString });
export const FrameParams = Type.Object({ execution_id: ExecutionIdString, frame_id: FrameId });

const Bounds = Type.Object({ left: Type.Integer(), top: Type.Integer(), right: Type.Integer(), bottom: Type.Integer() });

export const TraceStepSchema = Type.Object(
  {
    seq: Type.Integer({ description: '1, 2, 3, … in the order the run performed them' }),
    at_ms: Type.Integer({ description: 'When the action began, ms since the run started' }),
    duration_ms: Type.Integer(),
    action: Type.String({ description: 'The device-action catalogue name without `device_` (`tap`, `type`, `app_open`, `wait_for`), or an SDK function outside it by its own name (`current_app`, `wait`)' }),
    args: Type.Object({}, { additionalProperties: true, description: 'As called; typed text of a `secret` call is "•••"' }),
    element: Type.Optional(Type.Object({ text: Type.String(), resource_id: Type.String(), desc: Type.String(), class: Type.String(), bounds: Bounds }, { description: 'The element acted on, bounds in device pixels' })),
    outcome: StringEnum(['ok', 'error'] as const),
    error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
    frame_before: Type.Optional(Type.String({ description: 'The screen just before the action acted (for one that waited and gave up, when it gave up)' })),
    frame_after: Type.Optional(Type.String({ description: 'The screen once it settled after the action (at most 1 s later)' })),
    interrupts: Type.Array(Type.String(), { description: 'Interrupts handled while the action waited, as the run log names them' }),
    block_path: Type.Optional(Type.String({ description: 'Block programs: the step in the program, e.g. steps.3.then.0' })),
  },
  { $id: 'TraceStep' },
);

export const RunTrace = Type.Object(
  {
    execution_id: Type.String(),
    status: StringEnum(['running', 'completed', 'failed', 'stopped'] as const, { description: "The run history's status" }),
    started_at: Type.String({ format: 'date-time' }),
    ended_at: Type.Optional(Type.String({ format: 'date-time', description: 'Absent while the run goes on' })),
    failed_step: Type.Optional(Type.Integer({ description: "A failed run: the seq of the last step whose outcome is error; absent when the failure was not a device action's" })),
    frames_capped: Type.Boolean({ description: 'RUN_TRACE_MAX_FRAMES was reached: later steps have no frames' }),
    screen: Type.Optional(
      Type.Object(
        { width: Type.Integer(), height: Type.Integer() },
        { description: "Our addition: the device's screen in pixels, which element bounds are in (frames are scaled down to 720 px), so a viewer can draw an element on its frame. Absent when the device could not say." },
      ),
    ),
    steps: Type.Array(TraceStepSchema),
    final_frame: Nullable(Type.String({ description: 'A failed run: the screen when it ended' })),
    final_ui_tree: Nullable(Type.Array(UiElementWithCenter, { description: 'A failed run: the UI tree when it ended' })),
    notes: Type.Array(Type.String(), { description: 'Writes that failed while the run was recorded (steps missing from the trace); usually empty' }),
  },
  { $id: 'RunTrace' },
);
export type RunTraceRecord = Static<typeof RunTrace>;

export const RunTraceToolInput = Type.Object(
  {
    execution_id: ExecutionIdString,
    steps: Type.Optional(StringEnum(['failed', 'all'] as const, { default: 'all', description: '`failed`: only the failed step (or the last one) and the two before it' })),
  },
  { additionalProperties: false },
);
