// Reading a run's logs by its string execution id, with the seq cursor.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { NotFoundError } from '../../core/errors.js';
import { findRunByExecutionId } from '../executions/index.js';
import { readLinesAfter, readNewestLines } from './store.js';

export class RunLogService {
  constructor(private readonly db: Kysely<Database>) {}

  async read(userId: number, executionId: string, options: { maxLines: number; sinceSeq: number }) {
    const run = await findRunByExecutionId(this.db, userId, executionId);
    if (!run) throw new NotFoundError('No run with this execution_id.');
    // A run with no batches (a local run: only cloud runs ship logs) reads as empty, last_seq 0.
    const window =
      options.sinceSeq > 0 ? await readLinesAfter(this.db, run.id, options.sinceSeq, options.maxLines) : await readNewestLines(this.db, run.id, options.maxLines);
    return { execution_id: run.execution_id, lines: window.lines, last_seq: window.lastSeq };
  }
}
