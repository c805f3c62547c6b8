// The run's state changes, each in one transaction with its history record and its event
// (decisions.md §3, §4): `launching` → `running` with macro.started, and the end
// (finished/failed/stopped, or failed "worker lost") with macro.completed|failed|stopped.
// Each writes only while the worker's lease holds the run (completeJob/updateWhileHeld), so a
// worker that lost its run leaves no trace, and history and run never disagree.
import type { Transaction } from 'kysely';
import type { Db } from '../../../db/database.js';
import type { Lease } from '../../../db/jobs/kind.js';
import { completeJob, updateWhileHeld } from '../../../db/jobs/leases.js';
import { lockCloudRunRow } from '../../../db/locks.js';
import type { CloudRunState, Database } from '../../../db/schema.js';
import type { Clock } from '../../../lib/clock.js';
import type { EmitEvent } from '../../events/index.js';
import { endHistory, findRunByExecutionId, presentRun, recordHistoryProxy } from '../../executions/index.js';
import { HISTORY_STATUS, type RunOutcome, stopped } from '../outcome.js';
import type { TraceEnding } from '../trace/run-tracing.js';
import type { CloudRunJob } from './run-job.js';

export interface TransitionDeps {
  db: Db;
  clock: Clock;
  kind: CloudRunJob;
  /** Records macro.started and the end's macro.* event (the events module, with webhooks' fan-out). */
  emit: EmitEvent;
}

export const WORKER_LOST = 'worker lost';

type Trx = Transaction<Database>;

const runRow = (trx: Trx, runId: number) => trx.selectFrom('cloud_runs').selectAll().where('id', '=', runId).executeTakeFirst();

/** The macro's process (or interpreter) has started: `running`, macro.started. A run being stopped stays `stopping`. */
export async function markRunning(deps: TransitionDeps, lease: Lease): Promise<void> {
  const { db, clock, kind, emit } = deps;
  await db.kysely.transaction().execute(async (trx) => {
    const now = clock.now();
    const run = await runRow(trx, lease.id);
    if (!run) return;
    // The state is read and written in the one statement: a stop that lands after the read
    // above keeps its `stopping` (a write of the `running` read before would undo the stop).
    const held = await updateWhileHeld(trx, kind, lease, now, (eb) => ({
      state: eb.case().when('state', '=', 'launching').then(eb.val<CloudRunState>('running')).else(eb.ref('state')).end(),
      started_at: now,
      updated_at: now,
    }));
    if (!held) return;
    const history = await findRunByExecutionId(trx, run.user_id, run.execution_id);
    if (history) await emit(trx, { userId: run.user_id, type: 'macro.started', data: presentRun(history), deviceId: run.device_id, at: now });
  });
}

/** The proxy's exit as checked at launch, on the history record. */
export async function recordProxyExit(deps: TransitionDeps, lease: Lease, exit: { exitIp: string | null; country: string | null }): Promise<void> {
  const { db, clock, kind } = deps;
  await db.kysely.transaction().execute(async (trx) => {
    const now = clock.now();
    const run = await runRow(trx, lease.id);
    if (!run || !(await updateWhileHeld(trx, kind, lease, now, { updated_at: now }))) return;
    const history = await findRunByExecutionId(trx, run.user_id, run.execution_id);
    if (history) await recordHistoryProxy(trx, history.id, { proxy_exit_ip: exit.exitIp, proxy_country: exit.country }, now);
  });
}

/** Ends the history record like its run, with the terminal event; nothing when it has already ended. */
async function endRunHistory(trx: Trx, emit: EmitEvent, run: { user_id: number; execution_id: string }, outcome: RunOutcome, now: number): Promise<void> {
  const history = await findRunByExecutionId(trx, run.user_id, run.execution_id);
  if (!history || history.status !== 'running') return;
  await endHistory(trx, emit, history, { status: HISTORY_STATUS[outcome.state], endedAt: now, exitCode: outcome.exitCode, errorMessage: outcome.errorMessage }, now);
}

/**
 * Once a stop is asked, the run ends `stopped` whatever its process did before it died. The
 * stop closes the device RPC to the run's token at once, so a macro calling the device meets
 * invalid_run_token and may exit 1 before the worker's SIGTERM reaches it: that exit, or any
 * other end the process reached meanwhile, is the stop's doing. The exit code is kept.
 */
function endAfterStop(state: string, outcome: RunOutcome): RunOutcome {
  return state === 'stopping' && outcome.state !== 'stopped' ? stopped(outcome.exitCode) : outcome;
}

/**
 * The run ended (or never started): its end state, history and event, and the trace's end
 * (stored even when the lease was lost: the steps happened); false when the lease was lost.
 */
export async function endRun(deps: TransitionDeps, lease: Lease, outcome: RunOutcome, traceEnding?: TraceEnding): Promise<boolean> {
  const { db, clock } = deps;
  return db.kysely.transaction().execute(async (trx) => {
    const now = clock.now();
    // Locked, so that a stop cannot land between reading the state and writing the end.
    const run = await lockCloudRunRow(trx, db.dialect, lease.id);
    if (run) outcome = endAfterStop(run.state, outcome);
    const held = run !== undefined && (await endHeldRun(trx, deps, lease, run, outcome, now));
    await traceEnding?.store(trx, outcome.state, now);
    return held;
  });
}

async function endHeldRun(trx: Trx, deps: TransitionDeps, lease: Lease, run: { state: string; state_message: string | null; user_id: number; execution_id: string }, outcome: RunOutcome, now: number): Promise<boolean> {
  // A stop asked for by the device lifecycle keeps its reason ("device stopped").
  const stateMessage = outcome.state === 'stopped' && run.state_message ? run.state_message : outcome.stateMessage;
  const held = await completeJob(trx, deps.kind, lease, now, { state: outcome.state, state_message: stateMessage, finished_at: now, token_hash: null, updated_at: now });
  if (held) await endRunHistory(trx, deps.emit, run, outcome, now);
  return held;
}
