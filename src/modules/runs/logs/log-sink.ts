// Where a run's log lines go: the run-log store that `GET /api/executions/{execution_id}/logs`
// reads, one batch per append, under the run's history record.
import type { Db } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import { appendLogBatch } from '../../run-logs/index.js';

export interface LogSink {
  /** Stores the lines as one batch, in order after every earlier batch. */
  append(lines: string[]): Promise<void>;
}

/** The store's sink for the run history record `recordId` (historyRecordId). */
export function runLogStoreSink(db: Pick<Db, 'kysely' | 'dialect'>, clock: Clock, recordId: number): LogSink {
  return {
    async append(lines) {
      await appendLogBatch(db, recordId, lines, clock.now());
    },
  };
}
