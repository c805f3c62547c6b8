// Every write the agent makes to its session, each in one transaction and only while its
// claim still holds the row (completeJob / updateWhileHeld). A stop takes the row out of
// the worker's hands (it clears the lease), so after a stop every write here answers false
// and leaves no trace.
import type { Transaction, Updateable } from 'kysely';
import type { Db } from '../../../db/database.js';
import { completeJob, updateWhileHeld } from '../../../db/jobs/leases.js';
import type { Lease } from '../../../db/jobs/kind.js';
import type { Database } from '../../../db/schema.js';
import type { AuthoringSessionsTable } from '../../../db/schema-authoring.js';
import type { Clock } from '../../../lib/clock.js';
import type { AuthoringRole } from '../../../core/values.js';
import type { CreditLedger } from '../credits.js';
import { appendMessage } from '../messages.js';
import type { AuthoringSessionJob } from '../session-job.js';
import type { ChatMessage } from './conversation.js';
import type { ProjectFile } from './project-files.js';

type SessionSet = Omit<Updateable<AuthoringSessionsTable>, 'id' | 'user_id' | 'locked_by' | 'locked_until'>;

export interface WriteScope {
  db: Db;
  clock: Clock;
  kind: AuthoringSessionJob;
  lease: Lease;
}

export interface Note {
  role: AuthoringRole;
  text: string;
}

/** Writes `set` and the messages while the claim holds the row; `end` also ends the claim. */
export async function writeStep(scope: WriteScope, set: SessionSet, notes: Note[], options: { end?: boolean; extra?: (trx: Transaction<Database>) => Promise<void> } = {}): Promise<boolean> {
  return scope.db.kysely.transaction().execute(async (trx) => {
    const now = scope.clock.now();
    const write = options.end ? completeJob : updateWhileHeld;
    const held = await write(trx, scope.kind, scope.lease, now, { ...set, updated_at: now });
    if (!held) return false;
    for (const note of notes) await appendMessage(trx, scope.lease.id, note.role, note.text, now);
    await options.extra?.(trx);
    return true;
  });
}

/** After a model call: the reply joins the chat and its tokens are charged, together. */
export async function recordReply(
  scope: WriteScope,
  credits: CreditLedger,
  reply: { userId: number; tokensBefore: number; tokensAfter: number; steps: number; chat: ChatMessage[]; text: string | null },
): Promise<boolean> {
  const set: SessionSet = { tokens_used: reply.tokensAfter, credits_used: Math.ceil(reply.tokensAfter / 1000), steps: reply.steps, conversation: JSON.stringify(reply.chat) };
  const notes: Note[] = reply.text ? [{ role: 'agent', text: reply.text }] : [];
  return writeStep(scope, set, notes, {
    extra: async (trx) => {
      await credits.charge(trx, { userId: reply.userId, sessionId: scope.lease.id, tokensBefore: reply.tokensBefore, tokensAfter: reply.tokensAfter });
    },
  });
}

export const endFailed = (scope: WriteScope, message: string, workedMs: number) =>
  writeStep(scope, { state: 'failed', state_message: message, lease_id: null, worked_ms: workedMs }, [{ role: 'agent', text: `Session failed: ${message}` }], { end: true });

export const endDone = (scope: WriteScope, files: ProjectFile[], summary: string, workedMs: number, chat: ChatMessage[]) =>
  writeStep(scope, { state: 'done', state_message: null, files: JSON.stringify(files), lease_id: null, worked_ms: workedMs, conversation: JSON.stringify(chat) }, [{ role: 'agent', text: summary }], { end: true });

export const askUser = (scope: WriteScope, question: string, callId: string, workedMs: number, chat: ChatMessage[], files: ProjectFile[]) =>
  writeStep(
    scope,
    { state: 'waiting_for_answer', question, question_call_id: callId, worked_ms: workedMs, conversation: JSON.stringify(chat), files: JSON.stringify(files) },
    [{ role: 'agent', text: question }],
    { end: true },
  );
