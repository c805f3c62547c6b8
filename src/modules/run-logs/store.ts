// Run logs, stored in the batches the shipper sends. Batches of one run are numbered
// 1, 2, 3, … (`seq`, the reader's cursor) and each knows the run-wide number of its first
// line (`line_start`, from 1), so the newest lines are found through the
// (execution_pk, line_start) index without reading older batches.
import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { lockExecutionRow } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import { ValidationError } from '../../core/errors.js';

/** The shipper chunks its output into batches of at most this many lines. */
export const MAX_BATCH_LINES = 1000;
/**
 * A longer line is cut to its first 8 KiB of UTF-8, never inside a character, with no
 * marker added: the stored line is a prefix of what the run printed.
 */
export const MAX_LINE_BYTES = 8192;

export interface LogDb {
  kysely: Kysely<Database>;
  dialect: DialectName;
}

export function capLine(line: string): string {
  // A string of n UTF-16 units is at most 3n bytes of UTF-8: most lines skip the encoding.
  if (line.length * 3 <= MAX_LINE_BYTES) return line;
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= MAX_LINE_BYTES) return line;
  let end = MAX_LINE_BYTES;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--; // back to the start of a character
  return bytes.subarray(0, end).toString('utf8');
}

/**
 * Appends one batch and returns its seq. Concurrent appends to one run get distinct,
 * consecutive seqs and contiguous line numbers: the run's row is locked while the last
 * batch is read and the next one written.
 */
export async function appendLogBatch(db: LogDb, executionPk: number, lines: string[], now: number): Promise<{ seq: number; lineStart: number }> {
  if (lines.length === 0) throw new ValidationError([{ path: 'lines', message: 'must hold at least one line' }]);
  if (lines.length > MAX_BATCH_LINES) {
    throw new ValidationError([{ path: 'lines', message: `must hold at most ${MAX_BATCH_LINES} lines; send longer output in several batches` }]);
  }
  const stored = JSON.stringify(lines.map(capLine));
  return db.kysely.transaction().execute(async (trx) => {
    if (!(await lockExecutionRow(trx, db.dialect, executionPk))) throw new Error(`no execution with id ${executionPk}`);
    const last = await newestBatch(trx, executionPk);
    const seq = last ? last.seq + 1 : 1;
    const lineStart = last ? last.line_start + last.line_count : 1;
    await trx
      .insertInto('run_log_batches')
      .values({ execution_pk: executionPk, seq, line_start: lineStart, line_count: lines.length, lines: stored, created_at: now })
      .execute();
    return { seq, lineStart };
  });
}

/** The run's last batch (highest seq): where the next one continues, and where a newest window ends. */
function newestBatch(db: Kysely<Database>, executionPk: number) {
  return db
    .selectFrom('run_log_batches')
    .select(['seq', 'line_start', 'line_count'])
    .where('execution_pk', '=', executionPk)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export interface LogWindow {
  lines: string[];
  lastSeq: number;
}

type BatchRow = { seq: number; line_start: number; line_count: number; lines: string };

const parseLines = (batch: BatchRow) => JSON.parse(batch.lines) as string[];

/**
 * The newest `maxLines` lines, possibly starting inside a batch; lastSeq is the newest
 * batch read. Appends commit in seq order (each waits for the previous one's lock), so
 * what a read sees is always a gap-free prefix of the batches.
 */
export async function readNewestLines(db: Kysely<Database>, executionPk: number, maxLines: number): Promise<LogWindow> {
  const newest = await newestBatch(db, executionPk);
  if (!newest) return { lines: [], lastSeq: 0 };
  const firstWanted = Math.max(1, newest.line_start + newest.line_count - maxLines);
  // The batch holding line `firstWanted`: the last one starting at or before it.
  const first = await db
    .selectFrom('run_log_batches')
    .select('line_start')
    .where('execution_pk', '=', executionPk)
    .where('line_start', '<=', firstWanted)
    .orderBy('line_start', 'desc')
    .limit(1)
    .executeTakeFirst();
  // Batches from that one up to the newest seen above; later appends wait for the next read.
  const batches = first
    ? await db
        .selectFrom('run_log_batches')
        .select(['seq', 'line_start', 'line_count', 'lines'])
        .where('execution_pk', '=', executionPk)
        .where('line_start', '>=', first.line_start)
        .where('line_start', '<=', newest.line_start)
        .orderBy('line_start')
        .execute()
    : [];
  if (batches.length === 0) return { lines: [], lastSeq: 0 }; // the run was deleted meanwhile
  const lines = batches.flatMap(parseLines);
  return { lines: lines.slice(Math.max(0, lines.length - maxLines)), lastSeq: newest.seq };
}

/**
 * Whole batches after `sinceSeq`, oldest first, as many as fit in `maxLines` but always
 * at least one (a batch holds at most 1000 lines, the largest maxLines). lastSeq is the
 * last batch returned, or `sinceSeq` when none is newer: passed back, it yields exactly
 * the lines not yet read.
 */
export async function readLinesAfter(db: Kysely<Database>, executionPk: number, sinceSeq: number, maxLines: number): Promise<LogWindow> {
  const next = await db
    .selectFrom('run_log_batches')
    .select('line_start')
    .where('execution_pk', '=', executionPk)
    .where('seq', '>', sinceSeq)
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
  if (!next) return { lines: [], lastSeq: sinceSeq };
  // Only batches that start inside the window can fit; at most one of them overhangs it.
  const batches = await db
    .selectFrom('run_log_batches')
    .select(['seq', 'line_start', 'line_count', 'lines'])
    .where('execution_pk', '=', executionPk)
    .where('line_start', '>=', next.line_start)
    .where('line_start', '<', next.line_start + maxLines)
    .orderBy('line_start')
    .execute();
  const taken: BatchRow[] = [];
  let count = 0;
  for (const batch of batches) {
    if (taken.length > 0 && count + batch.line_count > maxLines) break;
    taken.push(batch);
    count += batch.line_count;
  }
  if (taken.length === 0) return { lines: [], lastSeq: sinceSeq }; // the run was deleted meanwhile
  return { lines: taken.flatMap(parseLines), lastSeq: taken[taken.length - 1].seq };
}
