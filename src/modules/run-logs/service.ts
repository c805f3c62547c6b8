// Reading a run's logs by its string execution id, with the seq cursor.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ServiceContext } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import { findRunByExecutionId } from '../executions/index.js';
import { MAX_LINES_DEFAULT, type RunLogInput } from './schemas.js';
import { readLinesAfter, readNewestLines } from './store.js';

export class RunLogService {
  constructor(private readonly db: Kysely<Database>) {}

  async read(ctx: ServiceContext, input: RunLogInput) {
    const run = await findRunByExecutionId(this.db, ctx.userId, input.execution_id);
    if (!run) throw new NotFoundError('No run with this execution_id.');
    const maxLines = input.max_lines ?? MAX_LINES_DEFAULT;
    const sinceSeq = input.since_seq ?? 0;
    // A run with no batches (a local run: only cloud runs ship logs) reads as empty, last_seq 0.
    const window = sinceSeq > 0 ? await readLinesAfter(this.db, run.id, sinceSeq, maxLines) : await readNewestLines(this.db, run.id, maxLines);
    return { execution_id: run.execution_id, lines: window.lines, last_seq: window.lastSeq };
  }
}
