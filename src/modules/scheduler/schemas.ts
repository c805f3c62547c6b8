// The scheduler's schemas (app-api.md "Scheduler"): one schema per route serves validation,
// types and OpenAPI; the schedule tools take the same create body.
import { type Static, Type } from 'typebox';
import { PageQuery, Paged } from '../../core/paging.js';
import { DateTime, Id, StringEnum } from '../../core/schema.js';

export const DISABLED_REASONS = ['macro_deleted', 'device_deleted', 'group_deleted', 'failing'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];
/** The outcomes a reader sees (an occurrence is `pending` only while its run is being started). */
export const SHOWN_OUTCOMES = ['started', 'skipped', 'missed'] as const;

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Cron = Type.String({ minLength: 1, maxLength: 200, description: 'Five fields: minute hour day-of-month month day-of-week (no seconds field), read in `timezone`' });
const Timezone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone name, for example `Europe/Berlin`; default `UTC`' });
const Args = Type.Record(Type.String(), Type.Unknown(), { description: "Arguments laid over the device's settings profile key by key at each run, as a run's `args`" });

export const Schedule = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    macro_id: Type.Optional(Type.Integer({ description: 'Absent once the macro was deleted' })),
    device_id: Type.Optional(Type.Integer({ description: 'The cloud device it runs on (absent for a group schedule, or once the device was deleted)' })),
    group_id: Type.Optional(Type.Integer({ description: 'The cloud group whose devices it runs on, chosen at each fire time' })),
    cron: Type.String(),
    timezone: Type.String(),
    args: Args,
    enabled: Type.Boolean(),
    next_fire_at: Type.Optional(DateTime({ description: 'UTC; absent when disabled' })),
    next_fires: Type.Optional(Type.Array(Type.String({ description: 'RFC 3339 with the zone offset' }), { description: 'The next five fire times in the schedule’s zone; absent when disabled' })),
    disabled_reason: Type.Optional(StringEnum(DISABLED_REASONS, { description: 'Why the service disabled it; cleared when a person enables it again' })),
    last_fire_at: Type.Optional(DateTime()),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'Schedule' },
);

export const Occurrence = Type.Object(
  {
    id: Type.Integer(),
    schedule_id: Type.Integer(),
    fire_at: DateTime(),
    device_id: Type.Optional(Type.Integer({ description: 'Absent when a group schedule found no cloud device in its group' })),
    outcome: StringEnum(SHOWN_OUTCOMES),
    reason: Type.Optional(Type.String({ description: 'For skipped and missed: device_busy, not_found, not_a_cloud_device, macro_not_runnable, runs_unavailable, group_empty, worker_lost, missed_downtime, past_grace' })),
    execution_id: Type.Optional(Type.String({ description: 'The run history record (when started)' })),
    run_id: Type.Optional(Type.Integer({ description: 'The cloud run (when started)' })),
  },
  { $id: 'ScheduleOccurrence' },
);

const target = {
  device_id: Type.Optional(Id('A cloud device of yours; give exactly one of device_id and group_id')),
  group_id: Type.Optional(Id('A cloud group of yours; its cloud devices are taken at each fire time')),
};

export const CreateScheduleBody = Type.Object(
  {
    macro_id: Id('One of your macros'),
    ...target,
    cron: Cron,
    timezone: Type.Optional(Timezone),
    args: Type.Optional(Args),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    name: Type.Optional(Name),
  },
  { additionalProperties: false },
);
export type CreateScheduleInput = Static<typeof CreateScheduleBody>;

export const UpdateScheduleBody = Type.Object(
  {
    macro_id: Type.Optional(Id('One of your macros')),
    ...target,
    cron: Type.Optional(Cron),
    timezone: Type.Optional(Timezone),
    args: Type.Optional(Args),
    enabled: Type.Optional(Type.Boolean()),
    name: Type.Optional(Name),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateScheduleInput = Static<typeof UpdateScheduleBody>;

export const ScheduleListQuery = Type.Object(
  {
    ...PageQuery,
    macro_id: Type.Optional(Id('Only schedules of this macro')),
    enabled: Type.Optional(Type.Boolean({ description: 'Only enabled (true) or disabled (false) schedules' })),
  },
  { additionalProperties: false },
);
export type ScheduleListInput = Static<typeof ScheduleListQuery>;

export const OccurrenceListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export type OccurrenceListInput = Static<typeof OccurrenceListQuery>;

export const SchedulePage = Paged(Schedule, 'SchedulePage');
export const OccurrencePage = Paged(Occurrence, 'ScheduleOccurrencePage');

export type ScheduleRecord = Static<typeof Schedule>;
export type OccurrenceRecord = Static<typeof Occurrence>;
