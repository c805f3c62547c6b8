// Schedule tools (scope macros:run, decisions.md §12): schedule_create as `POST /api/schedules`,
// schedule_list and schedule_cancel (which disables, and answers the disabled schedule). They
// call the scheduler's own service, as the application routes do.
import { Type } from 'typebox';
import { Id } from '../../../core/schema.js';
import { CreateScheduleBody, Schedule } from '../../scheduler/index.js';
import type { ToolDeps } from './deps.js';
import { registerScopedTool, type ToolCatalog } from '../tool-catalog.js';

/** An account holds at most 100 schedules, so one page lists them all. */
const ALL_SCHEDULES = 100;

export function registerScheduleTools(catalog: ToolCatalog, schedules: ToolDeps['schedules']): void {
  registerScopedTool(catalog, {
    name: 'schedule_create',
    scope: 'macros:run',
    title: 'Schedule a macro',
    description:
      'Runs a macro on a cloud device (device_id) or on every cloud device of a cloud group (group_id) on a five-field cron expression read in an IANA time zone (default UTC). ' +
      'Answers the schedule with its next five fire times. A busy device at fire time is skipped, not queued. At most 100 schedules per account.',
    input: CreateScheduleBody,
    output: Schedule,
    annotations: { destructiveHint: false, openWorldHint: true },
    async run(ctx, input) {
      return { data: await schedules.create(ctx, input) };
    },
  });

  registerScopedTool(catalog, {
    name: 'schedule_list',
    scope: 'macros:run',
    title: 'List schedules',
    description: 'Your schedules, newest first, each with whether it is enabled, its next fire times, and why the service disabled it, if it did.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ items: Type.Array(Schedule) }),
    annotations: { readOnlyHint: true },
    async run(ctx) {
      const page = await schedules.list(ctx, { page: 1, page_size: ALL_SCHEDULES });
      return { data: { items: page.rows } };
    },
  });

  registerScopedTool(catalog, {
    name: 'schedule_cancel',
    scope: 'macros:run',
    title: 'Cancel a schedule',
    description: 'Disables a schedule so it fires no more (runs already started go on), and answers it. A person can enable it again in the application.',
    input: Type.Object({ schedule_id: Id('One of your schedules') }, { additionalProperties: false }),
    output: Schedule,
    annotations: { destructiveHint: true, idempotentHint: true },
    async run(ctx, input) {
      return { data: await schedules.disable(ctx, { id: input.schedule_id }) };
    },
  });
}
