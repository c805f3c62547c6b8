// Builds the run worker (the generic job worker running the cloud-run kind with its handler
// and the stop watch), for `serve` (in-process), `svc worker`, tests and benchmarks.
import type { BackgroundWorker } from '../../../core/worker.js';
import type { Db } from '../../../db/database.js';
import { type JobLog, JobWorker } from '../../../db/jobs/worker.js';
import type { Clock } from '../../../lib/clock.js';
import type { DeviceHost } from '../../devices/index.js';
import type { EmitEvent } from '../../events/index.js';
import type { RunExecutor } from '../executor/run-executor.js';
import type { ProxyExitCheck, RunReadiness } from './readiness.js';
import { runHandlers } from './run-handler.js';
import type { CloudRunJob } from './run-job.js';
import { StopWatch } from './stop-watch.js';

export interface RunWorkerDeps {
  db: Db;
  clock: Clock;
  log: JobLog;
  kind: CloudRunJob;
  executor: RunExecutor;
  /** The device host (the route of a proxied run on `adb` goes through its driver). */
  host: DeviceHost;
  readiness: RunReadiness;
  proxyExit?: ProxyExitCheck;
  /** Names this worker in `locked_by`; defaults to host and process id. */
  name?: string;
  /** Records the runs' macro.* events. */
  emit: EmitEvent;
}

export interface RunWorker extends BackgroundWorker {
  /** The job worker itself (runOnce for tests and tools). */
  readonly jobs: JobWorker<CloudRunJob>;
}

export function createRunWorker(deps: RunWorkerDeps): RunWorker {
  const stops = new StopWatch(deps.db);
  const handlers = runHandlers({ ...deps, stops });
  const jobs = new JobWorker({ db: deps.db, clock: deps.clock, log: deps.log, kind: deps.kind, handlers, name: deps.name });
  return {
    name: deps.kind.name,
    jobs,
    start() {
      stops.start();
      jobs.start();
    },
    async stop() {
      // A run may last RUN_MAX_SECONDS: rather than keep a shutdown waiting that long, the
      // runs in flight are ended (failed, "the worker shut down") and their devices freed.
      const stopping = jobs.stop();
      stops.abortAll();
      await stopping;
      stops.stop();
    },
  };
}
