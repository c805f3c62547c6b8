// Authoring sessions, shaped fn(ctx, input) for the routes and the tool server's tools
// (decisions.md §13): start (checks in order, then one transaction that creates the session
// and wakes a worker), list, read, read messages by cursor, answer a question, stop.
import type { Kysely } from 'kysely';
import type { AuthoringSettings } from './settings.js';
import type { ServiceContext } from '../../core/context.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import type { IdInput } from '../../core/schema.js';
import { offsetOf, pageOf, pageRequest } from '../../core/paging.js';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { CreditLedger } from './credits.js';
import { AuthoringUnavailableError, NotWaitingError } from './errors.js';
import { appendMessage, readMessages } from './messages.js';
import type { AuthoringPorts } from './ports.js';
import { isLive, presentSession, type SessionRow } from './present.js';
import type { AuthoringSessionRecord, MessagesAnswerValue, ProjectFileValue, SessionListInput, StartSessionInput } from './schemas.js';
import { releaseSessionLease } from './session-lease.js';
import { AUTHORING_JOB, AUTHORING_STOP } from './session-job.js';
import { answerMessage } from './agent/conversation.js';

export const STOPPED_BY_USER = 'Stopped at your request.';
const MACRO_NAME_MAX = 100;

/** A new macro's name: the goal's first line, cut to fit. */
export function macroNameFor(goal: string): string {
  const line = goal.trim().split('\n')[0]?.trim() || 'Authored macro';
  return line.length > MACRO_NAME_MAX ? `${line.slice(0, MACRO_NAME_MAX - 1)}…` : line;
}

export interface SessionServiceDeps {
  db: Db;
  clock: Clock;
  settings: AuthoringSettings;
  credits: CreditLedger;
  ports: AuthoringPorts;
}

export class AuthoringSessionService {
  constructor(private readonly deps: SessionServiceDeps) {}

  private get db(): Kysely<Database> {
    return this.deps.db.kysely;
  }

  /** 503 `authoring_unavailable` when no model endpoint is configured. */
  ensureAvailable(): void {
    if (!this.deps.settings.llmUrl) throw new AuthoringUnavailableError();
  }

  private async owned(ctx: Pick<ServiceContext, 'userId'>, id: number): Promise<SessionRow> {
    const row = await this.db.selectFrom('authoring_sessions').selectAll().where('id', '=', id).where('user_id', '=', ctx.userId).executeTakeFirst();
    if (!row) throw new NotFoundError('No authoring session with this id.');
    return row;
  }

  async start(ctx: ServiceContext, input: StartSessionInput): Promise<AuthoringSessionRecord> {
    this.ensureAvailable();
    const { ports, credits, clock } = this.deps;
    if (input.device_id !== undefined) await ports.cloudDevices.get(ctx, { id: input.device_id });
    let files: ProjectFileValue[] = [];
    if (input.macro_id !== undefined) {
      const { kind } = await ports.macros.get(ctx, { id: input.macro_id });
      if (kind !== 'python') throw new ValidationError([{ path: 'body.macro_id', message: 'names a block macro; the agent writes code macros only' }]);
      files = await ports.codeSync.currentFiles(ctx, { macro_id: input.macro_id });
    }
    await credits.ensureAvailable(ctx.userId);
    // Created only once every check passed, so a refused start leaves nothing behind.
    const macroId = input.macro_id ?? (await ports.macros.create(ctx, { name: macroNameFor(input.goal), kind: 'python', description: `Written by the authoring agent for: ${input.goal.slice(0, 400)}` })).id;
    const row = await this.db.transaction().execute(async (trx) => {
      const now = clock.now();
      const session = await trx
        .insertInto('authoring_sessions')
        .values({
          user_id: ctx.userId,
          goal: input.goal,
          device_id: input.device_id ?? null,
          macro_id: macroId,
          state: 'working',
          state_message: null,
          question: null,
          question_call_id: null,
          files: JSON.stringify(files),
          conversation: '[]',
          lease_id: null,
          locked_until: null,
          locked_by: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.deps.db.wakeup.notify(trx, AUTHORING_JOB);
      return session;
    });
    return presentSession(row);
  }

  async list(ctx: ServiceContext, query: SessionListInput) {
    const request = pageRequest(query);
    const base = this.db.selectFrom('authoring_sessions').where('user_id', '=', ctx.userId);
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
      base.selectAll().orderBy('id', 'desc').limit(request.pageSize).offset(offsetOf(request)).execute(),
    ]);
    return pageOf(request, Number(count.n), rows.map(presentSession));
  }

  async get(ctx: ServiceContext, { id }: IdInput): Promise<AuthoringSessionRecord> {
    return presentSession(await this.owned(ctx, id));
  }

  async messages(ctx: ServiceContext, input: IdInput & { cursor?: string }): Promise<MessagesAnswerValue & { question: string | null }> {
    const row = await this.owned(ctx, input.id);
    // The state is read before the messages: a client that sees an ended state has every message.
    const read = await readMessages(this.db, row.id, Number(input.cursor ?? 0));
    return { ...read, state: row.state, question: row.state === 'waiting_for_answer' ? row.question : null };
  }

  async answer(ctx: ServiceContext, input: IdInput & { answer: string }): Promise<AuthoringSessionRecord> {
    const row = await this.db.transaction().execute(async (trx) => {
      const now = this.deps.clock.now();
      const session = await trx.selectFrom('authoring_sessions').selectAll().where('id', '=', input.id).where('user_id', '=', ctx.userId).executeTakeFirst();
      if (!session) throw new NotFoundError('No authoring session with this id.');
      if (session.state !== 'waiting_for_answer') throw new NotWaitingError(session.state);
      const conversation = answerMessage(session.conversation, session.question_call_id, input.answer);
      // Only a waiting session changes: a stop that committed first wins.
      const updated = await trx
        .updateTable('authoring_sessions')
        .set({ state: 'working', question: null, question_call_id: null, conversation, updated_at: now })
        .where('id', '=', session.id)
        .where('state', '=', 'waiting_for_answer')
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw new NotWaitingError('no longer waiting');
      await appendMessage(trx, session.id, 'user', input.answer, now);
      await this.deps.db.wakeup.notify(trx, AUTHORING_JOB);
      return updated;
    });
    return presentSession(row);
  }

  /** Ends a live session `stopped` at once; the worker holding it sees the stop and lets go. An ended session answers as it is. */
  async stop(ctx: ServiceContext, { id }: IdInput): Promise<AuthoringSessionRecord> {
    const { row, leaseId } = await this.db.transaction().execute(async (trx) => {
      const session = await trx.selectFrom('authoring_sessions').selectAll().where('id', '=', id).where('user_id', '=', ctx.userId).executeTakeFirst();
      if (!session) throw new NotFoundError('No authoring session with this id.');
      if (!isLive(session.state)) return { row: session, leaseId: null };
      const now = this.deps.clock.now();
      const updated = await trx
        .updateTable('authoring_sessions')
        .set({ state: 'stopped', state_message: STOPPED_BY_USER, question: null, question_call_id: null, lease_id: null, locked_by: null, locked_until: null, updated_at: now })
        .where('id', '=', session.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await appendMessage(trx, session.id, 'agent', 'Session stopped.', now);
      await this.deps.db.wakeup.notify(trx, AUTHORING_STOP);
      return { row: updated, leaseId: session.lease_id };
    });
    if (leaseId) await releaseSessionLease(this.deps.ports, ctx, leaseId);
    return presentSession(row);
  }
}
