// Trust figures, computed from what the service already records: how the runs of installed
// copies of a listing went over the last 30 days. Installs and ratings are kept on the
// listing row; run history is read through the copies' macro ids (executions_macro_idx).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export const TRUST_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

export async function trustFigures(db: Kysely<Database>, listingId: number, now: number) {
  const since = now - TRUST_WINDOW_DAYS * DAY_MS;
  const row = await db
    .selectFrom('macros as m')
    .innerJoin('executions as e', (join) => join.onRef('e.user_id', '=', 'm.user_id').onRef('e.macro_id', '=', 'm.id'))
    .where('m.installed_listing_id', '=', listingId)
    .where('e.started_at', '>=', since)
    .select([
      sql<number | string>`count(*)`.as('runs'),
      sql<number | string | null>`sum(case when e.status <> 'running' then 1 else 0 end)`.as('finished'),
      sql<number | string | null>`sum(case when e.status = 'completed' then 1 else 0 end)`.as('completed'),
    ])
    .executeTakeFirstOrThrow();
  const finished = Number(row.finished ?? 0);
  const completed = Number(row.completed ?? 0);
  return {
    window_days: TRUST_WINDOW_DAYS,
    runs: Number(row.runs),
    finished_runs: finished,
    completed_share: finished === 0 ? null : Math.round((completed / finished) * 1000) / 1000,
  };
}
