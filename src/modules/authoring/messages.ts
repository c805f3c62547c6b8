// A session's messages (decisions.md §13): numbered 1, 2, 3, … per session (`seq`, the
// reader's cursor), so a client polling with the last cursor reads each message once.
import type { Kysely, Transaction } from 'kysely';
import type { AuthoringRole } from '../../core/values.js';
import type { Database } from '../../db/schema.js';
import { toIso } from '../../lib/clock.js';

/** A message's text is cut here: a log tail or a file is summarised, never stored whole twice. */
export const MESSAGE_TEXT_MAX = 8000;
/** Messages one read answers; the cursor reads on. */
export const MESSAGES_PER_READ = 200;
/** `seq` is a 32-bit column: no message is numbered past this, whatever cursor a client sends. */
const SEQ_MAX = 2_147_483_647;

const cut = (text: string) => (text.length > MESSAGE_TEXT_MAX ? `${text.slice(0, MESSAGE_TEXT_MAX - 1)}…` : text);

export async function appendMessage(trx: Transaction<Database> | Kysely<Database>, sessionId: number, role: AuthoringRole, text: string, at: number): Promise<void> {
  const last = await trx.selectFrom('authoring_messages').select((eb) => eb.fn.max<number | null>('seq').as('seq')).where('session_id', '=', sessionId).executeTakeFirst();
  const seq = Number(last?.seq ?? 0) + 1;
  await trx.insertInto('authoring_messages').values({ session_id: sessionId, seq, role, text: cut(text), at }).execute();
}

export async function readMessages(db: Kysely<Database>, sessionId: number, after: number) {
  const rows = await db
    .selectFrom('authoring_messages')
    .select(['seq', 'role', 'text', 'at'])
    .where('session_id', '=', sessionId)
    // A cursor past any seq the column holds reads nothing (PostgreSQL would refuse to compare
    // a 32-bit column with it); the answer hands the same cursor back.
    .where('seq', '>', Math.min(after, SEQ_MAX))
    .orderBy('seq')
    .limit(MESSAGES_PER_READ)
    .execute();
  const messages = rows.map((row) => ({ seq: Number(row.seq), role: row.role, text: row.text, at: toIso(Number(row.at)) }));
  return { messages, cursor: String(messages.at(-1)?.seq ?? after) };
}
