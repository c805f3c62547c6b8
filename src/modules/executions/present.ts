// The run record as the API answers it and as `macro.*` events carry it, from one row.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, ExecutionsTable } from '../../db/schema.js';
import { ValidationError } from '../../core/errors.js';
import { toIso } from '../../lib/clock.js';
import { compact } from '../../lib/compact.js';

export type RunRow = Selectable<ExecutionsTable>;

export function presentRun(row: RunRow) {
  return compact({
    id: row.id,
    execution_id: row.execution_id,
    status: row.status,
    macro_id: row.macro_id,
    macro_name: row.macro_name,
    device_id: row.device_id,
    device_name: row.device_name,
    device_port: row.device_port,
    group_id: row.group_id,
    execution_type: row.execution_type,
    started_at: toIso(row.started_at),
    ended_at: toIso(row.ended_at),
    duration_ms: row.duration_ms,
    exit_code: row.exit_code,
    error_message: row.error_message,
    proxy_exit_ip: row.proxy_exit_ip,
    proxy_country: row.proxy_country,
  });
}

export type RunRecord = ReturnType<typeof presentRun>;

/** The caller's run by its string id, or undefined. */
export function findRunByExecutionId(db: Kysely<Database> | Transaction<Database>, userId: number, executionId: string): Promise<RunRow | undefined> {
  return db.selectFrom('executions').selectAll().where('user_id', '=', userId).where('execution_id', '=', executionId).executeTakeFirst();
}

/**
 * Milliseconds of an RFC 3339 timestamp the schema has already accepted. The format check
 * lets through a few strings Date cannot place (a leap second, an hour-only offset); those
 * are refused here rather than stored as NaN.
 */
export function parseTimestamp(value: string, path: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ValidationError([{ path, message: 'must be an RFC 3339 date-time such as 2026-03-02T10:00:00Z' }]);
  return ms;
}
