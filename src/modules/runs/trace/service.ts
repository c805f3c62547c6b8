// Reading a run's trace (decisions.md §17) by its string execution id, for the routes, the
// run_trace tool and the authoring agent. Someone else's run answers 404 as any missing
// run does; the caller's own run without a trace (RUN_TRACE off or failures, expired, a
// local run) answers 404 `trace_not_found`.
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../../../core/context.js';
import { NotFoundError } from '../../../core/errors.js';
import type { Database } from '../../../db/schema.js';
import { toIso } from '../../../lib/clock.js';
import type { TraceStep } from '../../devices/index.js';
import { findRunByExecutionId } from '../../executions/index.js';
import { traceHtml } from './html.js';
import type { RunTraceRecord } from './schemas.js';
import { readFrame, readFrames, readTrace } from './store.js';

export class TraceNotFoundError extends NotFoundError {
  constructor() {
    super('This run has no trace: tracing was off (RUN_TRACE) or kept only failed runs, the trace expired (RUN_TRACE_DAYS), or it is not a cloud run.', 'trace_not_found');
  }
}

/** The step a failed run failed on: the last whose outcome is error. */
export const failedStepOf = (steps: TraceStep[]) => steps.findLast((s) => s.outcome === 'error')?.seq;

export class TraceService {
  constructor(private readonly db: Kysely<Database>) {}

  private async owned(ctx: ServiceContext, executionId: string) {
    const run = await findRunByExecutionId(this.db, ctx.userId, executionId);
    if (!run) throw new NotFoundError('No run with this execution_id.');
    return run;
  }

  async get(ctx: ServiceContext, input: { execution_id: string }): Promise<RunTraceRecord> {
    return (await this.load(ctx, input)).trace;
  }

  private async load(ctx: ServiceContext, input: { execution_id: string }): Promise<{ pk: number; trace: RunTraceRecord }> {
    const run = await this.owned(ctx, input.execution_id);
    const trace = await readTrace(this.db, run.id);
    if (!trace) throw new TraceNotFoundError();
    // Found when read, not when the run ended: a Python run's last calls may be stored by
    // another process a moment after the run has ended.
    const failedStep = run.status === 'failed' ? failedStepOf(trace.steps) : undefined;
    return {
      pk: run.id,
      trace: {
        execution_id: run.execution_id,
        status: run.status as RunTraceRecord['status'],
        started_at: toIso(run.started_at),
        ...(run.ended_at === null ? {} : { ended_at: toIso(run.ended_at) }),
        ...(failedStep === undefined ? {} : { failed_step: failedStep }),
        frames_capped: trace.framesCapped,
        ...(trace.screen ? { screen: trace.screen } : {}),
        steps: trace.steps,
        final_frame: trace.finalFrame,
        final_ui_tree: trace.finalUiTree as RunTraceRecord['final_ui_tree'],
        notes: trace.notes,
      },
    };
  }

  /** One frame's JPEG bytes. */
  async frame(ctx: ServiceContext, input: { execution_id: string; frame_id: string }): Promise<Buffer> {
    const run = await this.owned(ctx, input.execution_id);
    const jpeg = await readFrame(this.db, run.id, input.frame_id);
    if (jpeg) return jpeg;
    if (!(await readTrace(this.db, run.id))) throw new TraceNotFoundError();
    throw new NotFoundError('This trace has no frame with this id.');
  }

  /** The frames a trace's steps name, by id, for the HTML page and the tool. */
  async frames(ctx: ServiceContext, input: { execution_id: string }): Promise<Map<string, Buffer>> {
    const run = await this.owned(ctx, input.execution_id);
    return readFrames(this.db, run.id);
  }

  /**
   * What the run_trace tool answers: the trace (with `failed`, only the failed step, or the
   * last one, and the two before it) and that step's before and after frames, once each.
   */
  async forTool(ctx: ServiceContext, input: { execution_id: string; steps?: 'failed' | 'all' }) {
    const { pk, trace } = await this.load(ctx, input);
    const at = trace.failed_step === undefined ? trace.steps.length - 1 : trace.steps.findIndex((s) => s.seq === trace.failed_step);
    const focus = trace.steps[at];
    const steps = input.steps === 'failed' ? trace.steps.slice(Math.max(0, at - 2), at + 1) : trace.steps;
    const ids = [...new Set([focus?.frame_before, focus?.frame_after].filter((id): id is string => Boolean(id)))];
    const frames: { id: string; jpeg: Buffer }[] = [];
    for (const id of ids) {
      const jpeg = await readFrame(this.db, pk, id);
      if (jpeg) frames.push({ id, jpeg });
    }
    return { trace: { ...trace, steps }, focus: focus?.seq, frames };
  }

  /** One self-contained page: frames inline, no request to any address. */
  async html(ctx: ServiceContext, input: { execution_id: string }): Promise<string> {
    const { pk, trace } = await this.load(ctx, input);
    return traceHtml(trace, await readFrames(this.db, pk));
  }
}
