// The cloud-run services, shaped fn(ctx, input) for the routes, the tool server, the scheduler
// and the authoring agent; each verb is its own file (start-run.ts, stop-run.ts).
import type { Config } from '../../../config.js';
import type { ServiceContext } from '../../../core/context.js';
import type { Db } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import type { RunCapacity } from './capacity.js';
import type { CloudRunRecord } from './present.js';
import type { CloudRunParamsInput, StartRunInput } from './schemas.js';
import { startRun } from './start-run.js';
import { type BatchStart, type BatchStarted, type RecordStarts, startRuns } from './start-runs.js';
import { getRun, runStates, stopActiveRunOnDevice, stopRun } from './stop-run.js';

export interface CloudRunDeps {
  config: Pick<Config, 'runsEnabled'>;
  db: Db;
  clock: Clock;
  capacity?: RunCapacity;
}

export interface CloudRunService {
  start(ctx: ServiceContext, input: StartRunInput): Promise<CloudRunRecord>;
  /**
   * Many starts at once, each as `start` would answer it (its run, or the error `start` would
   * throw), in a few statements for the whole batch: the scheduler's start job. `record` writes
   * the caller's own rows in the transaction that starts the runs (start-runs.ts).
   */
  startMany(starts: BatchStart[], record?: RecordStarts): Promise<BatchStarted[]>;
  /** `id` is the run's numeric id or its `execution_id`. */
  get(ctx: ServiceContext, input: CloudRunParamsInput): Promise<CloudRunRecord>;
  /** The states of those of the caller's runs among `ids` that exist, by id (the scheduler's failure streak). */
  states(ctx: ServiceContext, ids: number[]): Promise<Map<number, string>>;
  stop(ctx: ServiceContext, input: CloudRunParamsInput): Promise<{ status: 200 | 202; run: CloudRunRecord }>;
  /** For the device lifecycle's stop and delete: stops the device's active run and waits (bounded) until it has ended. */
  stopActiveRunOnDevice(deviceId: number, reason: string): Promise<void>;
}

export function cloudRunService(deps: CloudRunDeps): CloudRunService {
  return {
    start: (ctx, input) => startRun(deps, ctx, input),
    startMany: (starts, record) => startRuns(deps, starts, record),
    get: (ctx, { id }) => getRun(deps, ctx, id),
    states: (ctx, ids) => runStates(deps, ctx, ids),
    stop: (ctx, { id }) => stopRun(deps, ctx, id),
    stopActiveRunOnDevice: (deviceId, reason) => stopActiveRunOnDevice(deps, deviceId, reason),
  };
}
