// Trust figures, computed from what the service already records: how the runs of installed
// copies of a listing went over the last 30 days. Installs and ratings are kept on the
// listing row; the copies are the macros module's to list, and how their runs went the
// executions module's to count (by owner and macro, as executions_macro_idx files them).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { runOutcomesOf } from '../executions/index.js';
import { installedCopiesOf } from '../macros/index.js';

export const TRUST_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

export async function trustFigures(db: Kysely<Database>, listingId: number, now: number) {
  const since = now - TRUST_WINDOW_DAYS * DAY_MS;
  const copies = await installedCopiesOf(db, listingId);
  const { runs, finished, completed } = copies.length === 0 ? { runs: 0, finished: 0, completed: 0 } : await runOutcomesOf(db, copies, since);
  return {
    window_days: TRUST_WINDOW_DAYS,
    runs,
    finished_runs: finished,
    completed_share: finished === 0 ? null : Math.round((completed / finished) * 1000) / 1000,
  };
}
