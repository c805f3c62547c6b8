// Run history reads (keys with `runs:read`): newest first, filtered on the indexed columns.
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../../core/context.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { offsetOf, pageOf, pageRequest } from '../../core/paging.js';
import type { IdInput } from '../../core/schema.js';
import type { Database } from '../../db/schema.js';
import { findRunByExecutionId, parseTimestamp, presentRun, type RunRecord } from './present.js';
import { storedRunCount } from './run-counts.js';
import type { RunListInput } from './schemas.js';

export class RunHistoryService {
  constructor(private readonly db: Kysely<Database>) {}

  /** `since` and `until` are inclusive bounds on started_at. */
  async list(ctx: ServiceContext, filter: RunListInput) {
    const { userId } = ctx;
    const page = pageRequest(filter);
    const since = filter.since === undefined ? undefined : parseTimestamp(filter.since, 'query.since');
    const until = filter.until === undefined ? undefined : parseTimestamp(filter.until, 'query.until');
    if (since !== undefined && until !== undefined && since > until) {
      throw new ValidationError([{ path: 'query.since', message: 'must not be after until' }]);
    }
    // Each filter is an equality on the column after user_id in one of the executions
    // indexes, followed by (started_at, id): the page is read off that index backwards.
    let query = this.db.selectFrom('executions').where('user_id', '=', userId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.device_id !== undefined) query = query.where('device_id', '=', filter.device_id);
    if (filter.macro_id !== undefined) query = query.where('macro_id', '=', filter.macro_id);
    if (since !== undefined) query = query.where('started_at', '>=', since);
    if (until !== undefined) query = query.where('started_at', '<=', until);
    // The page's ids come off the index alone (every executions index ends in started_at,
    // id); only those rows are then read by primary key. OFFSET still walks the skipped
    // index entries, but no longer fetches a table row for each one: at offset 500,000 that
    // is the difference between reading 500,000 rows and 50. The outer query must stay a
    // bare `id IN (…)`: with another condition on an indexed column (user_id), SQLite without
    // ANALYZE statistics walks that index in order instead of looking up the 50 ids.
    const pageIds = query.select('id').orderBy('started_at', 'desc').orderBy('id', 'desc').limit(page.pageSize).offset(offsetOf(page));
    // With no filter but status, the exact count is kept in run_counts (a million-row
    // COUNT(*) costs ~100 ms on PostgreSQL); every other filter narrows the index enough to count.
    const onlyStatus = filter.device_id === undefined && filter.macro_id === undefined && since === undefined && until === undefined;
    const countRows = async () =>
      onlyStatus
        ? storedRunCount(this.db, userId, filter.status)
        : Number((await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
    const [total, rows] = await Promise.all([
      countRows(),
      this.db
        .selectFrom('executions')
        .selectAll()
        .where('id', 'in', pageIds)
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),
    ]);
    return pageOf(page, total, rows.map(presentRun));
  }

  async get(ctx: ServiceContext, { id }: IdInput) {
    const row = await this.db.selectFrom('executions').selectAll().where('id', '=', id).where('user_id', '=', ctx.userId).executeTakeFirst();
    if (!row) throw new NotFoundError('No run with this id.');
    return presentRun(row);
  }

  /** The caller's run by its execution_id, or null (the authoring agent reads a cloud run's outcome here). */
  async findByExecutionId(ctx: Pick<ServiceContext, 'userId'>, { execution_id: executionId }: { execution_id: string }): Promise<RunRecord | null> {
    const row = await findRunByExecutionId(this.db, ctx.userId, executionId);
    return row ? presentRun(row) : null;
  }
}
