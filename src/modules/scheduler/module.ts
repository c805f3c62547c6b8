// Builds the scheduler: the schedule service (routes and tools) and its two job workers: the
// fire pass records each due fire time's occurrences, the start job starts their runs.
// What it uses of macros, devices and runs is their own services, narrowed (ports.ts).
import type { BackgroundWorker } from '../../core/worker.js';
import { type JobLog, JobWorker } from '../../db/jobs/worker.js';
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { scheduleFireJob } from './fire-job.js';
import { firePasses } from './fire-pass.js';
import type { ScheduleRuns, ScheduleTargets } from './ports.js';
import { scheduleRoutes } from './routes.js';
import { ScheduleService } from './service.js';
import { scheduleStartJob } from './start-job.js';
import { startOccurrences } from './start-occurrence.js';

export interface SchedulerModuleDeps extends ModuleDeps, ScheduleTargets {
  log: JobLog;
  runs: ScheduleRuns;
}

export interface SchedulerServices {
  schedules: ScheduleService;
  /** A further schedule worker on this module's database (tests race several; the benchmark runs one per process). */
  newWorker(name?: string, options?: { fireOnly?: boolean }): SchedulerWorker;
}

/** Both job workers of the scheduler, started and stopped together. */
export interface SchedulerWorker {
  start(): void;
  stop(): Promise<void>;
  /** Fires what is due now, then starts the runs it recorded (and any others waiting); answers the schedules fired (claimed). For tests and tools. */
  runOnce(): Promise<number>;
  /** Only the fire passes due now (answers the schedules fired): their occurrences wait, `pending`, for a start worker. For tests. */
  fireOnce(): Promise<number>;
}

/** The schedule worker, for `serve`, `svc worker`, tests (several on one database) and the benchmark. */
export function createSchedulerWorker(deps: SchedulerModuleDeps & { name?: string; fireOnly?: boolean }): SchedulerWorker {
  const { db, clock, log, name } = deps;
  const kind = scheduleFireJob(deps.config);
  const startDeps = { db, clock, log, runs: deps.runs, config: deps.config };
  const starts = new JobWorker({
    db,
    clock,
    log,
    kind: scheduleStartJob(deps.config),
    name,
    handlers: { runBatch: (jobs) => startOccurrences(startDeps, jobs) },
  });
  const passDeps = { db, clock, log, kind, config: deps.config, targets: deps, runs: deps.runs, onRecorded: () => starts.nudge() };
  const fire = new JobWorker({ db, clock, log, kind, name, handlers: { runBatch: (jobs) => firePasses(passDeps, jobs) } });
  return {
    start() {
      fire.start();
      // fireOnly: recording without starting (the benchmark measures the two apart).
      if (!deps.fireOnly) starts.start();
    },
    async stop() {
      await Promise.all([fire.stop(), starts.stop()]);
    },
    fireOnce: () => fire.runOnce(),
    async runOnce() {
      const passes = await fire.runOnce();
      while ((await starts.runOnce()) > 0);
      return passes;
    },
  };
}

function schedulerWorker(deps: SchedulerModuleDeps): BackgroundWorker {
  let worker: SchedulerWorker | undefined;
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
  const schedules = new ScheduleService(deps.db.kysely, deps.clock, deps);
  return { routes: scheduleRoutes(schedules), services: { schedules, newWorker: (name, options) => createSchedulerWorker({ ...deps, name, ...options }) }, workers: [schedulerWorker(deps)] };
}
