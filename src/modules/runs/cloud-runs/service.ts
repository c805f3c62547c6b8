// The cloud-run services, shaped fn(ctx, input) for the routes, the tool server and the
// device lifecycle.
import type { Config } from '../../../config.js';
import type { ServiceContext } from '../../../core/context.js';
import type { Db } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import type { RunCapacity } from './capacity.js';
import type { CloudRunRecord } from './present.js';
import type { CloudRunRefInput, StartRunInput } from './schemas.js';
import { startRun } from './start-run.js';
import { getRun, stopActiveRunOnDevice, stopRun } from './stop-run.js';

export class CloudRunService {
  constructor(private readonly deps: { config: Pick<Config, 'runsEnabled'>; db: Db; clock: Clock; capacity?: RunCapacity }) {}

  /** `underLease`: the caller's own live lease on the device, which then does not make it busy (an authoring session's runs). */
  start(ctx: ServiceContext, input: StartRunInput & { deviceId: number; underLease?: string }): Promise<CloudRunRecord> {
    return startRun(this.deps, ctx, input);
  }

  /** `ref` is the run's numeric id or its `execution_id`. */
  get(ctx: ServiceContext, ref: CloudRunRefInput): Promise<CloudRunRecord> {
    return getRun(this.deps, ctx, ref);
  }

  stop(ctx: ServiceContext, ref: CloudRunRefInput): Promise<{ status: 200 | 202; run: CloudRunRecord }> {
    return stopRun(this.deps, ctx, ref);
  }

  /** For the device lifecycle's stop and delete: stops the device's active run and waits (bounded) until it has ended. */
  stopActiveRunOnDevice(deviceId: number, reason: string): Promise<void> {
    return stopActiveRunOnDevice(this.deps, deviceId, reason);
  }
}
