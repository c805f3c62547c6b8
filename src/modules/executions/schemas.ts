import { type Static, Type } from 'typebox';
import { PageQuery, Paged } from '../../core/paging.js';
import { DateTime, Id, StringEnum } from '../../core/schema.js';
import { EXECUTION_TYPES, RUN_STATUSES } from '../../core/values.js';
import { ERROR_MESSAGE_MAX } from './history.js';

/** Longer error messages are cut to this many characters, so a long traceback never costs the report. */
const INT32_MAX = 2_147_483_647;
export const RunIdParams = Type.Object({ id: Id('The numeric run id') });

/** The string run id the application chooses; also the path segment of the log route. */
export const ExecutionIdString = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: '1 to 64 letters, digits, - and _' });

export const Run = Type.Object(
  {
    id: Type.Integer(),
    execution_id: Type.String(),
    status: StringEnum(RUN_STATUSES),
    macro_id: Type.Optional(Type.Integer()),
    macro_name: Type.Optional(Type.String({ description: 'The macro name when the run started' })),
    device_id: Type.Optional(Type.Integer()),
    device_name: Type.Optional(Type.String({ description: 'The device name when the run started' })),
    device_port: Type.Optional(Type.Integer({ description: 'The device port when the run started; absent for cloud devices' })),
    group_id: Type.Optional(Type.Integer({ description: 'The device group when the run started' })),
    execution_type: StringEnum(EXECUTION_TYPES),
    started_at: DateTime(),
    ended_at: Type.Optional(DateTime()),
    duration_ms: Type.Optional(Type.Integer({ description: 'ended_at − started_at, computed by the server' })),
    exit_code: Type.Optional(Type.Integer()),
    error_message: Type.Optional(Type.String()),
    proxy_exit_ip: Type.Optional(Type.String()),
    proxy_country: Type.Optional(Type.String()),
  },
  { $id: 'Run', description: 'A run (execution) record. Optional fields are omitted when empty.' },
);

export const RunPage = Paged(Run, 'RunPage');

export const ReportBody = Type.Object(
  {
    execution_id: ExecutionIdString,
    status: StringEnum(RUN_STATUSES),
    macro_id: Id('One of your macros'),
    device_id: Id('One of your devices'),
    execution_type: StringEnum(EXECUTION_TYPES, { description: 'Must match the macro: `python` for a code macro, `block` for a block macro' }),
    started_at: DateTime({ description: 'RFC 3339; a later report keeps the first one' }),
    ended_at: Type.Optional(DateTime({ description: 'Required with an ended status, refused with `running`; not before started_at' })),
    exit_code: Type.Optional(Type.Integer({ minimum: -INT32_MAX - 1, maximum: INT32_MAX, description: 'Ended runs only' })),
    error_message: Type.Optional(Type.String({ description: `Ended runs only; cut to ${ERROR_MESSAGE_MAX} characters` })),
    proxy_exit_ip: Type.Optional(
      Type.String({ maxLength: 45, anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }], description: 'IPv4 or IPv6 address the run left through' }),
    ),
    proxy_country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'Two-letter country code, upper case' })),
  },
  { additionalProperties: false },
);
export type RunReport = Static<typeof ReportBody>;

export const RunListQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(RUN_STATUSES)),
    device_id: Type.Optional(Id()),
    macro_id: Type.Optional(Id()),
    since: Type.Optional(DateTime({ description: 'RFC 3339; runs started at or after it' })),
    until: Type.Optional(DateTime({ description: 'RFC 3339; runs started at or before it' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type RunListInput = Static<typeof RunListQuery>;
