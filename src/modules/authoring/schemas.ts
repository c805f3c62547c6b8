// The authoring routes' schemas (app-api.md "Authoring-agent sessions"): one TypeBox schema per
// shape serves validation, the types and the OpenAPI description.
import { type Static, Type } from 'typebox';
import { AUTHORING_ROLES, AUTHORING_STATES } from '../../core/values.js';
import { DateTime, Id, Nullable, StringEnum } from '../../core/schema.js';
import { Paged, PageQuery } from '../../core/paging.js';

export const GOAL_MAX = 4000;
export const ANSWER_MAX = 4000;

export const ProjectFile = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: 200, description: 'Relative path inside the project, `/`-separated' }),
    content: Type.String({ description: 'The file as UTF-8 text' }),
  },
  { $id: 'ProjectFile', additionalProperties: false },
);
export type ProjectFileValue = Static<typeof ProjectFile>;

export const AuthoringSession = Type.Object(
  {
    id: Type.Integer(),
    goal: Type.String(),
    device_id: Nullable(Type.Integer({ description: 'The cloud device the agent tries things on; null without one (or after the device was deleted)' })),
    macro_id: Nullable(Type.Integer({ description: 'The code macro the session writes; null after the macro was deleted' })),
    state: StringEnum(AUTHORING_STATES),
    state_message: Nullable(Type.String({ description: 'Why the session failed or stopped' })),
    question: Nullable(Type.String({ description: 'The question the agent asks, while waiting_for_answer' })),
    files: Nullable(Type.Array(ProjectFile, { description: 'The finished project, when done' })),
    credits_used: Type.Integer({ description: 'AI credits this session has spent: its model calls\' total tokens ÷ 1,000, rounded up' }),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'AuthoringSession' },
);
export type AuthoringSessionRecord = Static<typeof AuthoringSession>;

export const AuthoringSessionPage = Paged(AuthoringSession, 'AuthoringSessionPage');

export const StartSessionBody = Type.Object(
  {
    goal: Type.String({ minLength: 1, maxLength: GOAL_MAX, description: 'What the macro should do, in words' }),
    device_id: Type.Optional(Id('A cloud device the agent may try things on')),
    macro_id: Type.Optional(Id('A code macro to improve; without it a new code macro is created, named after the goal')),
  },
  { additionalProperties: false },
);
export type StartSessionInput = Static<typeof StartSessionBody>;

export const SessionListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export type SessionListInput = Static<typeof SessionListQuery>;

export const CURSOR_PATTERN = '^(0|[1-9][0-9]{0,11})$';
export const MessagesQuery = Type.Object(
  { cursor: Type.Optional(Type.String({ pattern: CURSOR_PATTERN, description: 'The `cursor` of the previous answer; absent reads from the start' })) },
  { additionalProperties: false },
);

export const AuthoringMessage = Type.Object(
  {
    seq: Type.Integer(),
    role: StringEnum(AUTHORING_ROLES),
    text: Type.String(),
    at: DateTime(),
  },
  { $id: 'AuthoringMessage' },
);

export const MessagesAnswer = Type.Object(
  {
    messages: Type.Array(AuthoringMessage),
    cursor: Type.String({ description: 'Pass back as `cursor` to read only newer messages' }),
    state: StringEnum(AUTHORING_STATES),
  },
  { $id: 'AuthoringMessages' },
);
export type MessagesAnswerValue = Static<typeof MessagesAnswer>;

export const AnswerBody = Type.Object({ answer: Type.String({ minLength: 1, maxLength: ANSWER_MAX }) }, { additionalProperties: false });

export const Credits = Type.Object(
  {
    period_start: DateTime({ description: 'The calendar month (UTC) the numbers cover: its first instant' }),
    period_end: DateTime({ description: 'The first instant of the next month, when `used` starts again from 0' }),
    limit: Type.Integer({ description: 'AI credits per month: one credit is 1,000 tokens (prompt plus completion)' }),
    used: Type.Integer({ description: 'Credits charged this month' }),
  },
  { $id: 'Credits' },
);
export type CreditsValue = Static<typeof Credits>;

export const CreditsPatch = Type.Object(
  { limit: Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Whole credits per calendar month; null returns the account to AUTHOR_CREDITS_PER_MONTH' })) },
  { additionalProperties: false },
);
