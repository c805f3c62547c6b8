// Run tools (scope macros:run): run_logs on the run-log service, run_trace on the trace
// service (as the trace route reads it, decisions.md §17), and run_validate, run_start,
// run_get, run_stop on the runs module's services (the run checks and the cloud-run service,
// which the REST routes call too). They answer the REST routes' cloud run record and schema.
import { Type } from 'typebox';
import { StringEnum } from '../../../core/schema.js';
import { MACRO_KINDS } from '../../../core/values.js';
import { ExecutionIdString } from '../../executions/index.js';
import { RunLog, RunLogQuery } from '../../run-logs/index.js';
import { CloudRun, CloudRunRef, type CloudRunService, RunTrace, RunTraceToolInput } from '../../runs/index.js';
import { registerScopedTool, type ToolCatalog } from '../tool-catalog.js';
import type { ToolDeps } from './deps.js';
import { DeviceId, MacroId, RunArgs } from './schemas.js';

const Problem = Type.Object({
  code: Type.String({ description: 'code_not_synced, entry_missing, invalid_block_program, macro_not_runnable, unknown_image, unknown_argument, not_a_cloud_device' }),
  message: Type.String(),
  path: Type.Optional(Type.String()),
});

export function registerRunTools(catalog: ToolCatalog, deps: ToolDeps): void {
  registerScopedTool(catalog, {
    name: 'run_logs',
    scope: 'macros:run',
    title: 'Read run logs',
    description: "A run's log lines, oldest first. Without since_seq, the newest max_lines lines; pass back last_seq as since_seq to read only newer lines.",
    input: Type.Object({ execution_id: ExecutionIdString, ...RunLogQuery.properties }, { additionalProperties: false }),
    output: RunLog,
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      return { data: await deps.runLogs.read(ctx, input) };
    },
  });

  registerScopedTool(catalog, {
    name: 'run_trace',
    scope: 'macros:run',
    title: 'Read a run trace',
    description:
      "A cloud run's device actions step by step (decisions.md §17): each step's action, arguments, the element acted on, outcome and error; failed_step names the step a failed run failed on. With steps: \"failed\", only that step (or the last one) and the two before it. The pictures after the JSON are that step's screen before and after (one when they are the same); read other frames through the REST route. A run without a trace answers trace_not_found.",
    input: RunTraceToolInput,
    output: RunTrace,
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      const { trace, focus, frames } = await deps.traces.forTool(ctx, input);
      const step = trace.steps.find((s) => s.seq === focus);
      const label = (id: string) => (step?.frame_before === id && step?.frame_after === id ? 'before and after' : step?.frame_before === id ? 'before' : 'after');
      return {
        data: trace,
        more: frames.flatMap((f) => [
          { type: 'text' as const, text: `Step ${focus}, ${label(f.id)} (frame ${f.id}):` },
          { type: 'image' as const, data: f.jpeg.toString('base64'), mimeType: 'image/jpeg' },
        ]),
      };
    },
  });

  registerScopedTool(catalog, {
    name: 'run_validate',
    scope: 'macros:run',
    title: 'Check a run before starting it',
    description:
      'Finds what would stop a run of a macro, without running it: code never synced, a missing entry file, an invalid or empty block program, image ids not in your library, arguments the settings profile does not define, a device that is not a cloud device.',
    input: Type.Object({ macro_id: MacroId, device_id: Type.Optional(DeviceId), args: Type.Optional(RunArgs) }, { additionalProperties: false }),
    output: Type.Object({ macro_id: Type.Integer(), kind: StringEnum(MACRO_KINDS), ok: Type.Boolean({ description: 'No problems found' }), problems: Type.Array(Problem) }),
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      return { data: await deps.runChecks.validateRun(ctx, input) };
    },
  });

  registerCloudRunTools(catalog, deps.runs);
}

function registerCloudRunTools(catalog: ToolCatalog, runs: CloudRunService): void {
  // The REST routes' reference: the record's id, or its execution_id as run_logs and the history show it.
  const RunIdInput = Type.Object({ run_id: CloudRunRef }, { additionalProperties: false });

  registerScopedTool(catalog, {
    name: 'run_start',
    scope: 'macros:run',
    title: 'Start a cloud run',
    description: "Runs a macro on one of your cloud devices (a stopped device is started first). Answers the cloud run record; read its logs with run_logs and its execution_id. A device that is leased or already running answers device_busy; runs switched off, or no device host able to take the device (every slot in use), answer runs_unavailable: try again later.",
    input: Type.Object({ device_id: DeviceId, macro_id: MacroId, args: Type.Optional(RunArgs) }, { additionalProperties: false }),
    output: CloudRun,
    annotations: { destructiveHint: false, openWorldHint: true },
    async run(ctx, input) {
      return { data: await runs.start(ctx, input) };
    },
  });

  registerScopedTool(catalog, {
    name: 'run_get',
    scope: 'macros:run',
    title: 'Check a cloud run',
    description: 'The cloud run record: its state (launching, running, finished, failed, stopping, stopped) and state_message.',
    input: RunIdInput,
    output: CloudRun,
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      return { data: await runs.get(ctx, { id: input.run_id }) };
    },
  });

  registerScopedTool(catalog, {
    name: 'run_stop',
    scope: 'macros:run',
    title: 'Stop a cloud run',
    description: 'Stops a cloud run (the record moves to stopping, then stopped); a run that already ended is answered as it is.',
    input: RunIdInput,
    output: CloudRun,
    annotations: { destructiveHint: true, idempotentHint: true },
    async run(ctx, input) {
      return { data: (await runs.stop(ctx, { id: input.run_id })).run };
    },
  });
}
