// Starting many cloud runs at once (issue 34 point 5): the scheduler's start job hands over a
// batch of due occurrences, and each gets exactly what `startRun` would give it (the same
// checks in the contract's order, the same refusals with their codes) in a handful of
// statements for the whole batch instead of about fifteen per run: one read of the devices,
// one per distinct macro, then one transaction that locks the devices, checks them all in one
// read and writes every run, bundle, history record and counter in one insert each.
// A batch whose transaction fails as a whole starts its runs one at a time, so one bad row
// stops only itself. A single start (the route, a tool) still takes `startRun`.
// `record` is the caller's write in the same transactions (the scheduler's occurrence
// outcomes): a run and its record commit together or not at all, so a worker that dies
// mid-batch leaves nothing started that its record does not say, and a record that throws
// (a lease lost to another worker) undoes the runs it would have named.
import type { Transaction } from 'kysely';
import type { ServiceContext } from '../../../core/context.js';
import { NotFoundError } from '../../../core/errors.js';
import { lockDeviceRows } from '../../../db/locks.js';
import type { Database } from '../../../db/schema.js';
import { deviceBusyWithRun, findOwnedDevices, liveLeaseRefusals } from '../../devices/index.js';
import { openHistories } from '../../executions/index.js';
import { argumentWords } from '../arguments/command-line.js';
import type { RunArgs } from '../arguments/merge.js';
import { resolveRunArgs } from '../arguments/profile-args.js';
import { bundleForMacro, type MacroBundle, pinRunBundles } from '../executor/bundle.js';
import { CLOUD_RUN_JOB } from '../job/run-job.js';
import { devicesWithActiveRun } from './active-run.js';
import { NotACloudDeviceForRunError } from './errors.js';
import { type CloudRunRecord, presentCloudRun } from './present.js';
import { launchingRun, newExecutionId, runsUnavailable, type StartDeps, startRun } from './start-run.js';

export interface BatchStart {
  ctx: ServiceContext;
  input: { device_id: number; macro_id: number; args?: Record<string, unknown> };
}

/** Each start's run, or the error its own start would have thrown. */
export type BatchStarted = { run: CloudRunRecord } | { error: unknown };

/** The caller's write, in the transaction that starts the runs: every answer known by then, by start index. */
export type RecordStarts = (trx: Transaction<Database>, answers: { index: number; answer: BatchStarted }[]) => Promise<void>;

interface Checked {
  index: number;
  start: BatchStart;
  bundle: MacroBundle;
  args: RunArgs;
  noHost: string | null;
}

export async function startRuns(deps: StartDeps, starts: BatchStart[], record?: RecordStarts): Promise<BatchStarted[]> {
  const results: BatchStarted[] = new Array(starts.length);
  const checked = await checkOutside(deps, starts, results);
  const answered = (indexes: number[]) => indexes.map((index) => ({ index, answer: results[index]! }));
  const refusedBefore = starts.flatMap((_, index) => (results[index] === undefined ? [] : [index]));
  if (checked.length === 0 && !record) return results;
  try {
    const runs = await insertRuns(deps, checked, results, record ? (trx, inTransaction) => record(trx, [...answered(refusedBefore), ...inTransaction]) : undefined);
    for (const [index, run] of runs) results[index] = { run };
  } catch {
    // The batch as a whole failed (a race the locks did not foresee, a lost connection, a
    // record that refused): one at a time, each start answers and records for itself.
    for (const { index } of checked) delete results[index];
    await Promise.all(
      checked.map(async ({ index, start }) => {
        const own = record ? (trx: Transaction<Database>, run: CloudRunRecord) => record(trx, [{ index, answer: { run } }]) : undefined;
        results[index] = await startRun(deps, start.ctx, start.input, own).then(
          (run) => ({ run }),
          (error: unknown) => ({ error }),
        );
      }),
    );
    // The refusals write nothing of the runs module's: recorded together afterwards.
    const refused = starts.flatMap((_, index) => ('error' in results[index]! ? [index] : []));
    if (record && refused.length > 0) await deps.db.kysely.transaction().execute((trx) => record(trx, answered(refused)));
  }
  return results;
}

/** The checks made before the transaction (404s, 409 `macro_not_runnable`, 422 arguments, the host), each start's own. */
async function checkOutside(deps: StartDeps, starts: BatchStart[], results: BatchStarted[]): Promise<Checked[]> {
  const { db } = deps;
  const devices = await findOwnedDevices(
    db.kysely,
    starts.map((s) => ({ userId: s.ctx.userId, deviceId: s.input.device_id })),
  );
  const bundles = new Map<string, Promise<MacroBundle>>();
  const bundleOf = (userId: number, macroId: number) => {
    const key = `${userId}:${macroId}`;
    let bundle = bundles.get(key);
    if (!bundle) {
      bundle = bundleForMacro(db.kysely, userId, macroId);
      bundle.catch(() => undefined);
      bundles.set(key, bundle);
    }
    return bundle;
  };
  const checked = await Promise.all(
    starts.map(async (start, index): Promise<Checked | undefined> => {
      try {
        const { userId } = start.ctx;
        const device = devices.get(start.input.device_id);
        if (!device) throw new NotFoundError('No device with this id.');
        if (device.is_hosted !== 1) throw new NotACloudDeviceForRunError();
        const bundle = await bundleOf(userId, start.input.macro_id);
        let args: RunArgs = {};
        if (bundle.kind === 'python') {
          args = await resolveRunArgs(db.kysely, { userId, macroId: start.input.macro_id, followedProfileId: device.profile_id }, start.input.args as RunArgs | undefined);
          argumentWords(args, 'body.args');
        }
        const noHost = deps.config.runsEnabled && deps.capacity ? await deps.capacity.refusal(device.id) : null;
        return { index, start, bundle, args, noHost };
      } catch (error) {
        results[index] = { error };
        return undefined;
      }
    }),
  );
  return checked.filter((c): c is Checked => c !== undefined);
}

/** The transaction: the devices locked and checked, then every accepted run written. Answers the runs by start index. */
async function insertRuns(deps: StartDeps, checked: Checked[], results: BatchStarted[], record?: RecordStarts): Promise<Map<number, CloudRunRecord>> {
  const { db, clock } = deps;
  return db.kysely.transaction().execute(async (trx) => {
    const refusedHere: number[] = [];
    const now = clock.now();
    const deviceIds = [...new Set(checked.map((c) => c.start.input.device_id))];
    const locked = await lockDeviceRows(trx, db.dialect, deviceIds);
    // A live lease refuses a device's start, and an active run refuses it first (its message), as `startRun` answers.
    const [refusals, running] = await Promise.all([liveLeaseRefusals(trx, deviceIds, now), devicesWithActiveRun(trx, deviceIds)]);
    for (const deviceId of running) refusals.set(deviceId, deviceBusyWithRun('run'));
    const taken = new Set<number>();
    const accepted: (Checked & { device: NonNullable<ReturnType<typeof locked.get>> })[] = [];
    for (const c of checked) {
      const { device_id } = c.start.input;
      const device = locked.get(device_id);
      let error: unknown;
      // A delete that committed after the read above: the device is already gone for its owner.
      if (!device || device.user_id !== c.start.ctx.userId || device.delete_requested_at !== null) error = new NotFoundError('No device with this id.');
      else if (refusals.has(device_id)) error = refusals.get(device_id);
      // Two starts on one device in one batch: the first is the device's active run.
      else if (taken.has(device_id)) error = deviceBusyWithRun('run');
      else if (!deps.config.runsEnabled || c.noHost !== null) error = runsUnavailable(deps.config.runsEnabled, c.noHost);
      if (error !== undefined || !device) {
        results[c.index] = { error };
        refusedHere.push(c.index);
        continue;
      }
      taken.add(device_id);
      accepted.push({ ...c, device });
    }
    const runs = new Map<number, CloudRunRecord>();
    const refusedInside = refusedHere.map((index) => ({ index, answer: results[index]! }));
    if (accepted.length === 0) {
      await record?.(trx, refusedInside);
      return runs;
    }
    const named = accepted.map((a) => ({ ...a, executionId: newExecutionId() }));
    const rows = await trx
      .insertInto('cloud_runs')
      .values(
        named.map(({ start, bundle, args, device, executionId }) => launchingRun({ userId: start.ctx.userId, executionId, deviceId: device.id, macroId: start.input.macro_id, bundle, args, now })),
      )
      .returningAll()
      .execute();
    const byExecution = new Map(rows.map((row) => [row.execution_id, row]));
    const written = named.map((a) => ({ ...a, run: byExecution.get(a.executionId)! }));
    await pinRunBundles(
      trx,
      written.map((w) => ({ runId: w.run.id, content: w.bundle.content })),
    );
    await openHistories(
      trx,
      written.map((w) => ({ userId: w.start.ctx.userId, executionId: w.run.execution_id, type: w.bundle.kind, macro: { id: w.start.input.macro_id, name: w.bundle.macroName }, device: w.device, startedAt: now, now })),
    );
    for (const w of written) runs.set(w.index, presentCloudRun(w.run));
    await record?.(trx, [...refusedInside, ...[...runs].map(([index, run]) => ({ index, answer: { run } }))]);
    await db.wakeup.notify(trx, CLOUD_RUN_JOB);
    return runs;
  });
}
