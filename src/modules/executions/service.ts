// Run history reads (keys with `runs:read`): newest first, filtered on the indexed columns.
import type { Kysely } from 'kysely';
import type { Database, RunStatus } from '../../db/schema.js';
import { NotFoundError, ValidationError } from '../../http/errors.js';
import { offsetOf, type PageRequest, pageOf } from '../../http/paging.js';
import { parseTimestamp, presentRun } from './present.js';

export interface RunFilter {
  status?: RunStatus;
  device_id?: number;
  macro_id?: number;
  /** RFC 3339; inclusive bounds on started_at. */
  since?: string;
  until?: string;
}

export class RunHistoryService {
  constructor(private readonly db: Kysely<Database>) {}

  async list(userId: number, filter: RunFilter, page: PageRequest) {
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
    const [{ total }, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      query.selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc').limit(page.pageSize).offset(offsetOf(page)).execute(),
    ]);
    return pageOf(page, Number(total), rows.map(presentRun));
  }

  async get(userId: number, id: number) {
    const row = await this.db.selectFrom('executions').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw new NotFoundError('No run with this id.');
    return presentRun(row);
  }
}
