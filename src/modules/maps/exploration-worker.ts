// Builds the exploration worker: the generic job worker running the exploration kind with its
// handlers, for `serve` (in-process), `svc worker`, tests and benchmarks. A shutdown ends the
// explorations in flight (failed, "the worker shut down") rather than keep it waiting up to an hour.
import type { BackgroundWorker } from '../../core/worker.js';
import type { Db } from '../../db/database.js';
import { type JobLog, JobWorker } from '../../db/jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import type { DeviceHost } from '../devices/index.js';
import { explorationHandlers, type ExplorationReadiness, type ThumbnailStore } from './exploration-handler.js';
import type { ExplorationJob } from './exploration-job.js';

export interface ExplorationWorkerDeps {
  db: Db;
  clock: Clock;
  log: JobLog;
  kind: ExplorationJob;
  host: DeviceHost;
  readiness: ExplorationReadiness;
  thumbnails?: ThumbnailStore;
  name?: string;
}

export interface ExplorationWorker extends BackgroundWorker {
  readonly jobs: JobWorker<ExplorationJob>;
}

export function createExplorationWorker(deps: ExplorationWorkerDeps): ExplorationWorker {
  const shutdown = new AbortController();
  const handlers = explorationHandlers({ ...deps, shutdown: shutdown.signal });
  const jobs = new JobWorker({ db: deps.db, clock: deps.clock, log: deps.log, kind: deps.kind, handlers, name: deps.name });
  return {
    name: deps.kind.name,
    jobs,
    start() {
      jobs.start();
    },
    async stop() {
      const stopping = jobs.stop();
      shutdown.abort(new Error('the worker shut down'));
      await stopping;
    },
  };
}
