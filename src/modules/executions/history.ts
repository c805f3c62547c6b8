// The run-history lifecycle, written once for both kinds of run: reported runs (report.ts,
// the application's reports) and cloud runs (the runs module's job). Each function runs in
// the caller's transaction, so the record, its counters and its event commit with the change
// that caused them (decisions.md §3, §4).
import type { Transaction, Updateable } from 'kysely';
import type { ExecutionType } from '../../core/values.js';
import type { Database, ExecutionsTable, RunStatus } from '../../db/schema.js';
import { countDeviceRun, countDeviceRuns } from '../devices/index.js';
import type { EmitEvent } from '../events/index.js';
import { presentRun, type RunRow } from './present.js';
import { countRun, countRuns } from './run-counts.js';

type Trx = Transaction<Database>;

/** The cap on a history record's `error_message`, in UTF-16 units. */
export const ERROR_MESSAGE_MAX = 4000;

/** At most ERROR_MESSAGE_MAX UTF-16 units, never splitting a surrogate pair. */
export function capErrorMessage(text: string): string {
  if (text.length <= ERROR_MESSAGE_MAX) return text;
  const code = text.charCodeAt(ERROR_MESSAGE_MAX - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? ERROR_MESSAGE_MAX - 1 : ERROR_MESSAGE_MAX);
}

export type EndedStatus = Exclude<RunStatus, 'running'>;

export interface HistoryEnd {
  status: EndedStatus;
  endedAt: number;
  exitCode: number | null;
  errorMessage: string | null;
}

export type HistoryProxy = Pick<Updateable<ExecutionsTable>, 'proxy_exit_ip' | 'proxy_country'>;

export interface OpenHistory {
  userId: number;
  executionId: string;
  type: ExecutionType;
  macro: { id: number; name: string | null };
  /** The device as it is now: the record keeps this snapshot. */
  device: { id: number; name: string; port: number | null; group_id: number | null };
  startedAt: number;
  /** Set for a run reported only once it had ended. */
  end?: HistoryEnd | null;
  proxy?: HistoryProxy;
  now: number;
}

/** The record a run opens with: running, or already ended for a run reported only once it had. */
function historyRow(input: OpenHistory) {
  const { end } = input;
  return {
    user_id: input.userId,
    execution_id: input.executionId,
    status: end?.status ?? ('running' as const),
    macro_id: input.macro.id,
    macro_name: input.macro.name,
    device_id: input.device.id,
    device_name: input.device.name,
    device_port: input.device.port,
    group_id: input.device.group_id,
    execution_type: input.type,
    started_at: input.startedAt,
    ended_at: end?.endedAt ?? null,
    duration_ms: end ? end.endedAt - input.startedAt : null,
    exit_code: end?.exitCode ?? null,
    error_message: end?.errorMessage ?? null,
    proxy_exit_ip: input.proxy?.proxy_exit_ip ?? null,
    proxy_country: input.proxy?.proxy_country ?? null,
    created_at: input.now,
    updated_at: input.now,
  };
}

/**
 * Opens a run's record (status running, or already ended) and counts it for its user and on
 * its device. Undefined when a record with this execution id exists (a concurrent first
 * report won the insert). Emits no event: the caller says when the run started.
 */
export async function openHistory(trx: Trx, input: OpenHistory): Promise<RunRow | undefined> {
  const row = await trx
    .insertInto('executions')
    .values(historyRow(input))
    .onConflict((oc) => oc.columns(['user_id', 'execution_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  await countRun(trx, input.userId, row.status, 1);
  await countDeviceRun(trx, input.userId, input.device.id);
  return row;
}

/**
 * `openHistory` for many new runs at once (the scheduler's batched starts): one insert for the
 * records, one for their counters, one for their devices' counts. Every execution id is new
 * (the caller made them), so none is skipped.
 */
export async function openHistories(trx: Trx, inputs: OpenHistory[]): Promise<void> {
  if (inputs.length === 0) return;
  const rows = inputs.map(historyRow);
  await trx.insertInto('executions').values(rows).execute();
  await countRuns(trx, rows.map((row) => ({ userId: row.user_id, status: row.status })));
  await countDeviceRuns(trx, inputs.map((input) => ({ userId: input.userId, deviceId: input.device.id })));
}

/** Fills in the proxy's exit on a running record; undefined when it is no longer running. */
export function recordHistoryProxy(trx: Trx, id: number, proxy: HistoryProxy, now: number): Promise<RunRow | undefined> {
  return trx.updateTable('executions').set({ ...proxy, updated_at: now }).where('id', '=', id).where('status', '=', 'running').returningAll().executeTakeFirst();
}

/**
 * Ends a running record, moves the counters and emits `macro.<status>` with the whole record.
 * The UPDATE is conditional on `running`, so of two concurrent ends exactly one changes the
 * row; the other gets undefined.
 */
export async function endHistory(trx: Trx, emit: EmitEvent, run: Pick<RunRow, 'id' | 'started_at'>, end: HistoryEnd, now: number, proxy: HistoryProxy = {}): Promise<RunRow | undefined> {
  const row = await trx
    .updateTable('executions')
    .set({
      ...proxy,
      status: end.status,
      ended_at: end.endedAt,
      duration_ms: Math.max(0, end.endedAt - run.started_at),
      exit_code: end.exitCode,
      error_message: end.errorMessage === null ? null : capErrorMessage(end.errorMessage),
      updated_at: now,
    })
    .where('id', '=', run.id)
    .where('status', '=', 'running')
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  await countRun(trx, row.user_id, 'running', -1);
  await countRun(trx, row.user_id, end.status, 1);
  await emit(trx, { userId: row.user_id, type: `macro.${end.status}`, data: presentRun(row), deviceId: row.device_id, at: now });
  return row;
}
