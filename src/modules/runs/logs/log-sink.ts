// Where a run's log lines go: the run-log store that `GET /api/executions/{execution_id}/logs`
// reads, one batch per append, under the run history record of the same execution id.
import type { Db } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import { historyRecordId } from '../../executions/index.js';
import { appendLogBatch } from '../../run-logs/index.js';

export interface LogSink {
  /** Stores the lines as one batch, in order after every earlier batch. */
  append(lines: string[]): Promise<void>;
}

/** The store's sink for the run history record `executionId` of `userId`; throws when there is no such record. */
export async function runLogStoreSink(db: Pick<Db, 'kysely' | 'dialect'>, clock: Clock, run: { userId: number; executionId: string }): Promise<LogSink> {
  const recordId = await historyRecordId(db.kysely, run.userId, run.executionId);
  if (recordId === undefined) throw new Error(`no run history record ${run.executionId} to write logs under`);
  return {
    async append(lines) {
      await appendLogBatch(db, recordId, lines, clock.now());
    },
  };
}
