// Execution reporting (application only): the first report of an execution_id creates the
// run, later ones move it from `running` to an ended status. Every change and its event
// commit together, in one transaction.
import type { Kysely, Transaction } from 'kysely';
import type { Database, RunStatus } from '../../db/schema.js';
import type { ServiceContext } from '../../core/context.js';
import { ConflictError, type FieldError, ValidationError } from '../../core/errors.js';
import type { Clock } from '../../lib/clock.js';
import { findOwnedDevice } from '../devices/index.js';
import type { EmitEvent } from '../events/index.js';
import { capErrorMessage, type EndedStatus, endHistory, type HistoryProxy, openHistory, recordHistoryProxy } from './history.js';
import { findOwnedMacro } from '../macros/index.js';
import { findRunByExecutionId, parseTimestamp, presentRun, type RunRecord, type RunRow } from './present.js';
import type { RunReport } from './schemas.js';

/** A report whose fields agree with each other, timestamps in milliseconds. */
interface CheckedReport {
  report: RunReport;
  startedAt: number;
  /** Set exactly when the status is an ended one. */
  end: { status: EndedStatus; endedAt: number; exitCode: number | null; errorMessage: string | null } | null;
  proxy: HistoryProxy;
}

function check(report: RunReport): CheckedReport {
  const errors: FieldError[] = [];
  const startedAt = parseTimestamp(report.started_at, 'body.started_at');
  let end: CheckedReport['end'] = null;
  if (report.status === 'running') {
    // Outcome fields describe an ended run; on a running one they would be contradicted later.
    for (const field of ['ended_at', 'exit_code', 'error_message'] as const) {
      if (report[field] !== undefined) errors.push({ path: `body.${field}`, message: 'is only for an ended run (status completed, failed or stopped)' });
    }
  } else if (report.ended_at === undefined) {
    errors.push({ path: 'body.ended_at', message: `is required when status is ${report.status}` });
  } else {
    end = {
      status: report.status,
      endedAt: parseTimestamp(report.ended_at, 'body.ended_at'),
      exitCode: report.exit_code ?? null,
      errorMessage: report.error_message === undefined ? null : capErrorMessage(report.error_message),
    };
  }
  if (errors.length) throw new ValidationError(errors);
  const proxy = {
    ...(report.proxy_exit_ip !== undefined ? { proxy_exit_ip: report.proxy_exit_ip } : {}),
    ...(report.proxy_country !== undefined ? { proxy_country: report.proxy_country } : {}),
  };
  return { report, startedAt, end, proxy };
}

function endNotBeforeStart(endedAt: number, startedAt: number): void {
  if (endedAt < startedAt) throw new ValidationError([{ path: 'body.ended_at', message: 'must not be before started_at' }]);
}

/** Cloud runs' execution ids (`cr_` + 24 hex, decisions.md §10). */
const CLOUD_RUN_PREFIX = 'cr_';

const managedByService = () =>
  new ConflictError(
    'run_managed_by_service',
    'Execution ids starting with cr_ belong to cloud runs: the service records their history itself, and reports cannot create or change it. Report local runs under another id; stop a cloud run with POST /api/hosted/runs/{id}/stop.',
  );

const alreadyEnded = (status: RunStatus) =>
  new ConflictError('run_already_ended', `This run has already ended (${status}); an ended run cannot change again.`);

export class ExecutionReporter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly emit: EmitEvent,
  ) {}

  async report(ctx: ServiceContext, input: RunReport): Promise<RunRecord> {
    const { userId } = ctx;
    const checked = check(input);
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      // A cloud run's history record moves only with its run (decisions.md §10), and `cr_` ids
      // are the service's to mint: a report may not create one either, so no record of another
      // account's (or a future) cloud run can be claimed ahead of it. Every cloud run's id has
      // the prefix (the runs module mints them all), so the prefix alone answers "is this a
      // cloud run's record" without reading the runs' table.
      if (input.execution_id.startsWith(CLOUD_RUN_PREFIX)) throw managedByService();
      const existing = await findRunByExecutionId(trx, userId, input.execution_id);
      if (existing) return this.update(trx, existing, checked, now);
      const created = await this.create(trx, userId, checked, now);
      if (created) return created;
      // A concurrent first report inserted the row after our read: ON CONFLICT waited for it
      // to commit, so it is visible now, and this report is a later one.
      const winner = await findRunByExecutionId(trx, userId, input.execution_id);
      if (!winner) throw new Error('execution row vanished after an insert conflict');
      return this.update(trx, winner, checked, now);
    });
  }

  /** The first report: snapshot the macro and device as they are now. Undefined if another report won the insert. */
  private async create(trx: Transaction<Database>, userId: number, checked: CheckedReport, now: number): Promise<RunRecord | undefined> {
    const { report, startedAt, end } = checked;
    const macro = await findOwnedMacro(trx, userId, report.macro_id);
    const device = await findOwnedDevice(trx, userId, report.device_id);
    if (macro.kind !== report.execution_type) {
      throw new ValidationError([{ path: 'body.execution_type', message: `must be ${macro.kind}, the kind of macro ${macro.id}` }]);
    }
    if (end) endNotBeforeStart(end.endedAt, startedAt);
    const row = await openHistory(trx, {
      userId,
      executionId: report.execution_id,
      type: report.execution_type,
      macro: { id: macro.id, name: macro.name },
      device,
      startedAt,
      end,
      proxy: { proxy_exit_ip: report.proxy_exit_ip ?? null, proxy_country: report.proxy_country ?? null },
      now,
    });
    if (!row) return undefined;
    const record = presentRun(row);
    // A first report that has already ended (a short local run reported once) still tells
    // subscribers that the run started: macro.started, carrying the record as it was while
    // running, then the terminal event with the whole record.
    const started = end ? presentRun({ ...row, status: 'running', ended_at: null, duration_ms: null, exit_code: null, error_message: null }) : record;
    await this.emit(trx, { userId, type: 'macro.started', data: started, deviceId: row.device_id, at: now });
    if (end) await this.emit(trx, { userId, type: `macro.${end.status}`, data: record, deviceId: row.device_id, at: now });
    return record;
  }

  /**
   * A later report. Its macro, device, type and started_at are ignored: the run keeps the
   * snapshot of its first report. The UPDATE is conditional on `running`, so of two
   * concurrent ending reports exactly one changes the row and the other gets 409.
   */
  private async update(trx: Transaction<Database>, run: RunRow, checked: CheckedReport, now: number): Promise<RunRecord> {
    if (run.status !== 'running') throw alreadyEnded(run.status);
    const { end, proxy } = checked;
    if (!end) {
      // running → running: only the proxy fields may be filled in; no event.
      if (Object.keys(proxy).length === 0) return presentRun(run);
      const row = await recordHistoryProxy(trx, run.id, proxy, now);
      if (!row) throw alreadyEnded(await this.statusOf(trx, run.id));
      return presentRun(row);
    }
    endNotBeforeStart(end.endedAt, run.started_at);
    const row = await endHistory(trx, this.emit, run, end, now, proxy);
    if (!row) throw alreadyEnded(await this.statusOf(trx, run.id));
    return presentRun(row);
  }

  private async statusOf(trx: Transaction<Database>, id: number): Promise<RunStatus> {
    const row = await trx.selectFrom('executions').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    return row.status;
  }
}
