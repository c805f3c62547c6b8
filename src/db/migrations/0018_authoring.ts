// Authoring-agent sessions (decisions.md §13, docs/decisions/0018-authoring-agent.md): the
// session is also its job's queue row (the lease columns), its messages are read by cursor
// (`seq`), and AI credits are kept as one charge row per model call, so a month's use is a
// sum over the month and a session's charges survive the session's deletion.
import { type Kysely, type Migration, sql } from 'kysely';
import { oneOf, refType, withId } from '../columns.js';
import { AUTHORING_ROLES, AUTHORING_STATES } from '../../core/values.js';
import type { DialectName } from '../database.js';


export function authoring(dialect: DialectName): Migration {
  const ref = refType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('authoring_sessions'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('goal', 'text', (c) => c.notNull())
        // A session outlives its device and macro, like run history: the ids become null.
        .addColumn('device_id', ref, (c) => c.references('devices.id').onDelete('set null'))
        .addColumn('macro_id', ref, (c) => c.references('macros.id').onDelete('set null'))
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('state_message', 'text')
        .addColumn('question', 'text')
        // The id of the model's `ask_user` call the answer goes back to.
        .addColumn('question_call_id', 'text')
        // The project files, JSON `[{path, content}]`.
        .addColumn('files', 'text', (c) => c.notNull())
        // The chat so far (JSON, the endpoint's message list without the system prompt), so
        // any worker can take the session up again after a question.
        .addColumn('conversation', 'text', (c) => c.notNull())
        .addColumn('steps', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tokens_used', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('credits_used', 'integer', (c) => c.notNull().defaultTo(0))
        // Time spent working (waiting for an answer does not count), for AUTHOR_MAX_MINUTES.
        .addColumn('worked_ms', 'bigint', (c) => c.notNull().defaultTo(0))
        // The device lease the session holds while it works (decisions.md §9).
        .addColumn('lease_id', 'text')
        .addColumn('locked_until', 'bigint')
        .addColumn('locked_by', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('authoring_sessions_state_check', oneOf('state', AUTHORING_STATES))
        .execute();
      await db.schema.createIndex('authoring_sessions_user_idx').on('authoring_sessions').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('authoring_sessions_working_idx').on('authoring_sessions').columns(['created_at', 'id']).where(sql.ref('state'), '=', 'working').execute();

      await withId(db.schema.createTable('authoring_messages'), dialect)
        .addColumn('session_id', ref, (c) => c.notNull().references('authoring_sessions.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('authoring_messages_role_check', oneOf('role', AUTHORING_ROLES))
        .execute();
      // The cursor is `seq`; two writers of one session cannot take the same number.
      await db.schema.createIndex('authoring_messages_seq_uq').on('authoring_messages').columns(['session_id', 'seq']).unique().execute();

      await withId(db.schema.createTable('credit_charges'), dialect)
        .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('session_id', ref, (c) => c.references('authoring_sessions.id').onDelete('set null'))
        .addColumn('credits', 'integer', (c) => c.notNull())
        .addColumn('tokens', 'bigint', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('credit_charges_user_at_idx').on('credit_charges').columns(['user_id', 'at']).execute();

      // The operator's allowance for an account; no row means AUTHOR_CREDITS_PER_MONTH.
      await db.schema
        .createTable('credit_allowances')
        .addColumn('user_id', ref, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('monthly_limit', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
