// The scheduler's application routes (app-api.md "Scheduler"): session only; tool clients use
// the schedule tools, which call the same service.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, IdParams } from '../../core/schema.js';
import { contextOf } from '../../http/request-context.js';
import { sessionRoute } from '../../http/route-auth.js';
import { CreateScheduleBody, OccurrenceListQuery, OccurrencePage, Schedule, ScheduleListQuery, SchedulePage, UpdateScheduleBody } from './schemas.js';
import type { ScheduleService } from './service.js';

const RULES =
  '`cron` has exactly five fields (no seconds) and is read in `timezone` (IANA, default UTC): a local time a daylight-saving change skips does not fire, one it repeats fires once. ' +
  'An invalid expression or unknown zone answers 422 naming the field.';

export function scheduleRoutes(schedules: ScheduleService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['schedules'];
    app.post(
      '/api/schedules',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'createSchedule',
          description: `Runs a macro on a cloud device, or on every cloud device of a cloud group (taken at each fire time), on a cron expression. ${RULES} At most 100 schedules per account (422 \`schedule_limit_reached\`). Someone else's macro, device or group answers 404; a local device 404 \`not_a_cloud_device\`.`,
          tags,
          summary: 'Create a schedule',
          body: CreateScheduleBody,
          response: { 201: Schedule, ...errors(400, 404, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await schedules.create(contextOf(request), request.body)),
    );
    app.get(
      '/api/schedules',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'listSchedules',
          description: 'A page of your schedules, newest first, optionally only those of one macro, or only enabled or disabled ones (a schedule whose macro or target was deleted counts as disabled).',
          tags,
          summary: 'List schedules',
          querystring: ScheduleListQuery,
          response: { 200: SchedulePage, ...errors(422) },
        },
      },
      async (request) => schedules.list(contextOf(request), request.query),
    );
    app.get(
      '/api/schedules/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getSchedule',
          description: 'One schedule with its next five fire times in its own zone. Someone else’s answers 404.',
          tags,
          summary: 'Read a schedule',
          params: IdParams,
          response: { 200: Schedule, ...errors(404, 422) },
        },
      },
      async (request) => schedules.get(contextOf(request), request.params),
    );
    app.put(
      '/api/schedules/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'updateSchedule',
          description: `Changes any field of create; fields left out keep their value. A new \`cron\` or \`timezone\`, or enabling it again, recomputes the next fire time from now; enabling clears \`disabled_reason\`. Giving \`device_id\` or \`group_id\` replaces the target. ${RULES}`,
          tags,
          summary: 'Change, enable or disable a schedule',
          params: IdParams,
          body: UpdateScheduleBody,
          response: { 200: Schedule, ...errors(400, 404, 422) },
        },
      },
      async (request) => schedules.update(contextOf(request), { ...request.params, ...request.body }),
    );
    app.delete(
      '/api/schedules/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'deleteSchedule',
          description: 'Deletes a schedule and its occurrences; the runs it started keep their history.',
          tags,
          summary: 'Delete a schedule',
          params: IdParams,
          response: { 204: { type: 'null' }, ...errors(404, 422) },
        },
      },
      async (request, reply) => {
        await schedules.remove(contextOf(request), request.params);
        return reply.code(204).send(null);
      },
    );
    app.get(
      '/api/schedules/:id/occurrences',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'listScheduleOccurrences',
          description: 'What happened at each fire time, per device, newest first: `started` (with the run’s `execution_id` and `run_id`), `skipped` (with the refusal’s code, such as `device_busy`) or `missed` (after downtime).',
          tags,
          summary: 'List a schedule’s occurrences',
          params: IdParams,
          querystring: OccurrenceListQuery,
          response: { 200: OccurrencePage, ...errors(404, 422) },
        },
      },
      async (request) => schedules.occurrences(contextOf(request), { ...request.params, ...request.query }),
    );
  };
}
