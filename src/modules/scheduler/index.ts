// The scheduler module's front door: schedules, their occurrences and the worker that fires them.
export { buildSchedulerModule } from './module.js';
export type { ScheduleService } from './service.js';
export { scheduleFireJob } from './fire-job.js';
export { scheduleStartJob } from './start-job.js';
export { CreateScheduleBody, Schedule } from './schemas.js';
