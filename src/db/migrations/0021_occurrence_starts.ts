// Recording a fire time and starting its runs become two steps (docs/decisions/0013-scheduler.md,
// "At scale"): the fire pass records every occurrence as `pending` at once, and occurrences are
// the queue of the run starts, claimed with a lease like every other queue table. A start whose
// worker dies is never repeated (the lease lapses into `skipped`, `worker_lost`), so a run is
// still started at most once per occurrence.
import { type Kysely, type Migration, sql } from 'kysely';

export function occurrenceStarts(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('schedule_occurrences').addColumn('locked_until', 'bigint').execute();
      await db.schema.alterTable('schedule_occurrences').addColumn('locked_by', 'text').execute();
      // The starts still to make, in fire-time order: a few rows at any moment among many.
      await db.schema
        .createIndex('schedule_occurrences_pending_idx')
        .on('schedule_occurrences')
        .columns(['fire_at', 'id'])
        .where(sql.ref('outcome'), '=', 'pending')
        .execute();
    },
  };
}
