// Starting a cloud run (decisions.md §10): the checks in the contract's order, then one
// transaction that creates the run, pins what it runs and creates its history record
// (status running), so the run and its history never disagree. The run job takes it from
// there; the wake-up reaches workers when the transaction commits.
import type { Transaction } from 'kysely';
import type { Config } from '../../../config.js';
import type { ServiceContext } from '../../../core/context.js';
import { NotFoundError } from '../../../core/errors.js';
import { type Db, isUniqueViolation } from '../../../db/database.js';
import { lockDeviceRow } from '../../../db/locks.js';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../../lib/clock.js';
import { randomHex } from '../../../lib/crypto.js';
import { assertNoLiveLease, deviceBusyWithRun, findOwnedDevice } from '../../devices/index.js';
import { openHistory } from '../../executions/index.js';
import { argumentWords } from '../arguments/command-line.js';
import type { RunArgs } from '../arguments/merge.js';
import { resolveRunArgs } from '../arguments/profile-args.js';
import { bundleForMacro, type MacroBundle, pinRunBundle } from '../executor/bundle.js';
import { CLOUD_RUN_JOB } from '../job/run-job.js';
import { deviceHasActiveRun } from './active-run.js';
import type { RunCapacity } from './capacity.js';
import { NotACloudDeviceForRunError, RunsUnavailableError } from './errors.js';
import { type CloudRunRecord, presentCloudRun } from './present.js';
import type { StartRunInput } from './schemas.js';

export interface StartDeps {
  config: Pick<Config, 'runsEnabled'>;
  db: Db;
  clock: Clock;
  /** Whether a device host can take the run; without it (a runs module built alone) the host is not asked. */
  capacity?: RunCapacity;
}

/** A cloud run's execution id: only this mints `cr_` ids, and reports refuse the prefix (executions/report.ts relies on both). */
export const newExecutionId = () => `cr_${randomHex(12)}`;

/** 503 `runs_unavailable`: runs switched off, else no host can take the device (`noHost` says why). */
export function runsUnavailable(runsEnabled: boolean, noHost: string | null): RunsUnavailableError {
  if (!runsEnabled) return new RunsUnavailableError('Server-side runs are switched off on this service (RUNS_ENABLED=false). Try again later or ask the operator.');
  return new RunsUnavailableError(`No device host can take this run now: ${noHost}. Try again when a device is free (stopping another cloud device frees its slot).`);
}

/** A new run's row, `launching`, with what it runs pinned: the single and the batched start write the same. */
export function launchingRun(run: { userId: number; executionId: string; deviceId: number; macroId: number; bundle: MacroBundle; args: RunArgs; now: number }) {
  return {
    user_id: run.userId,
    execution_id: run.executionId,
    device_id: run.deviceId,
    macro_id: run.macroId,
    macro_kind: run.bundle.kind,
    state: 'launching' as const,
    state_message: null,
    args: JSON.stringify(run.args),
    entry_path: run.bundle.entryPath,
    bundle_sha: run.bundle.bundleSha,
    code_ref: run.bundle.codeRef,
    token_hash: null,
    started_at: null,
    finished_at: null,
    locked_until: null,
    locked_by: null,
    created_at: run.now,
    updated_at: run.now,
  };
}

/** What the caller writes in the start's own transaction (the scheduler: its occurrence's outcome), so the two commit or fail together. */
export type RecordStarted = (trx: Transaction<Database>, run: CloudRunRecord) => Promise<void>;

export async function startRun(deps: StartDeps, ctx: ServiceContext, input: StartRunInput, record?: RecordStarted): Promise<CloudRunRecord> {
  const { db, clock } = deps;
  const { userId } = ctx;
  // 404, 404 not_a_cloud_device, 404 (macro), 409 macro_not_runnable: read outside the
  // transaction (nothing here is written), then held in it by the device lock.
  const device = await findOwnedDevice(db.kysely, userId, input.device_id);
  if (device.is_hosted !== 1) throw new NotACloudDeviceForRunError();
  const bundle = await bundleForMacro(db.kysely, userId, input.macro_id);
  let args: RunArgs = {};
  if (bundle.kind === 'python') {
    args = await resolveRunArgs(db.kysely, { userId, macroId: input.macro_id, followedProfileId: device.profile_id }, input.args as RunArgs | undefined);
    // An argument no command line can carry is the caller's to fix: 422 now, not a failed run later.
    argumentWords(args, 'body.args');
  }
  // Asking the host may mean asking an ADB server (another machine, up to its time limit), so
  // it is asked here, before the transaction: a network wait must never hold the database
  // (on SQLite its only connection). It is answered inside, after the 409s, in the contract's order.
  const noHost = deps.config.runsEnabled && deps.capacity ? await deps.capacity.refusal(device.id) : null;

  return db.kysely.transaction().execute(async (trx) => {
    const now = clock.now();
    // Leases take the same lock before they check for runs, so a run and a lease never both win.
    const locked = await lockDeviceRow(trx, db.dialect, userId, device.id);
    // A delete that committed after the read above: the device is already gone for its owner.
    if (!locked || locked.delete_requested_at !== null) throw new NotFoundError('No device with this id.');
    // The one exception to a lease excluding a run: an authoring session's own run on the device its lease holds (decisions.md §13).
    await assertNoLiveLease(trx, { deviceId: device.id, now, exceptLease: input.under_lease });
    // An active run on the device is 409 `device_busy`, before the 503s: asked here when a 503
    // follows, and otherwise answered by the insert below, which the database refuses
    // (cloud_runs_device_active_uq) while another run of the device is active.
    if (!deps.config.runsEnabled || noHost !== null) {
      if (await deviceHasActiveRun(trx, device.id)) throw deviceBusyWithRun('run');
      throw runsUnavailable(deps.config.runsEnabled, noHost);
    }
    let run;
    try {
      run = await trx
        .insertInto('cloud_runs')
        .values(launchingRun({ userId, executionId: newExecutionId(), deviceId: device.id, macroId: input.macro_id, bundle, args, now }))
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      // cloud_runs_device_active_uq: the device has an active run (another start won, or one was already running).
      if (isUniqueViolation(error)) throw deviceBusyWithRun('run');
      throw error;
    }
    await pinRunBundle(trx, run.id, bundle.content);
    await openHistory(trx, {
      userId,
      executionId: run.execution_id,
      type: bundle.kind,
      macro: { id: input.macro_id, name: bundle.macroName },
      device: locked,
      startedAt: now,
      now,
    });
    const started = presentCloudRun(run);
    await record?.(trx, started);
    await db.wakeup.notify(trx, CLOUD_RUN_JOB);
    return started;
  });
}
