// Builds the scheduler: the schedule service (routes and tools) and the worker that fires
// due schedules. What it needs of macros, devices and runs comes in as ports (ports.ts).
import type { BackgroundWorker } from '../../core/worker.js';
import { type JobLog, JobWorker } from '../../db/jobs/worker.js';
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { type ScheduleFireJob, scheduleFireJob } from './fire-job.js';
import { firePass } from './fire-pass.js';
import type { ScheduleRuns, ScheduleTargets } from './ports.js';
import { scheduleRoutes } from './routes.js';
import { ScheduleService } from './service.js';

export interface SchedulerModuleDeps extends ModuleDeps {
  log: JobLog;
  targets: ScheduleTargets;
  runs: ScheduleRuns;
}

export interface SchedulerServices {
  schedules: ScheduleService;
  /** A further schedule worker on this module's database (tests race several; the benchmark runs one per process). */
  newWorker(name?: string): JobWorker<ScheduleFireJob>;
}

/** The schedule worker, for `serve`, `svc worker`, tests (several on one database) and the benchmark. */
export function createSchedulerWorker(deps: SchedulerModuleDeps & { name?: string; kind?: ScheduleFireJob }): JobWorker<ScheduleFireJob> {
  const kind = deps.kind ?? scheduleFireJob(deps.config);
  const passDeps = { db: deps.db, clock: deps.clock, log: deps.log, kind, config: deps.config, targets: deps.targets, runs: deps.runs };
  return new JobWorker({ db: deps.db, clock: deps.clock, log: deps.log, kind, name: deps.name, handlers: { run: (job) => firePass(passDeps, job) } });
}

function schedulerWorker(deps: SchedulerModuleDeps): BackgroundWorker {
  let worker: JobWorker<ScheduleFireJob> | undefined;
  return {
    name: 'schedules',
    start() {
      worker ??= createSchedulerWorker(deps);
      worker.start();
    },
    async stop() {
      await worker?.stop();
      worker = undefined;
    },
  };
}

export function buildSchedulerModule(deps: SchedulerModuleDeps): BuiltModule<SchedulerServices> {
  const schedules = new ScheduleService(deps.db.kysely, deps.clock, deps.targets);
  return { routes: scheduleRoutes(schedules), services: { schedules, newWorker: (name) => createSchedulerWorker({ ...deps, name }) }, workers: [schedulerWorker(deps)] };
}
