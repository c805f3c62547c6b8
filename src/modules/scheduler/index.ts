// The scheduler module's front door: schedules, their occurrences and the worker that fires them.
export { buildSchedulerModule, createSchedulerWorker, type SchedulerModuleDeps, type SchedulerServices, type SchedulerWorker } from './module.js';
export type { ScheduleService } from './service.js';
export type { ScheduleRuns, ScheduleTargets } from './ports.js';
export { SCHEDULE_FIRE_JOB, scheduleFireJob, type ScheduleFireJob } from './fire-job.js';
export { SCHEDULE_START_JOB, scheduleStartJob } from './start-job.js';
export { CreateScheduleBody, Schedule } from './schemas.js';
