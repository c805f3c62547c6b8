// The scheduler module's settings (decisions.md §14; docs/scheduler.md), composed by config.ts
// with the rest: how late a missed fire time may still run, and how a scheduler worker polls
// and batches its fire passes.
import { type Env, integer } from '../lib/env-settings.js';

export interface SchedulerSettings {
  /** SCHEDULE_MISFIRE_GRACE_S (as ms): after downtime, the latest missed fire time still runs if it is younger than this (§14). */
  scheduleMisfireGraceMs: number;
  /** SCHEDULER_POLL_MS: how often a scheduler worker looks for schedules whose fire time has come. */
  schedulerPollMs: number;
  /** SCHEDULER_CONCURRENCY: fire passes (and run starts) one worker process makes at the same time. */
  schedulerConcurrency: number;
  /** SCHEDULER_BATCH: schedules one fire pass records together (one statement for their occurrences, one for their next fire times). */
  schedulerBatch: number;
}

export function schedulerSettings(env: Env): SchedulerSettings {
  return {
    scheduleMisfireGraceMs: integer(env, 'SCHEDULE_MISFIRE_GRACE_S', 300, 0, 86_400) * 1000,
    schedulerPollMs: integer(env, 'SCHEDULER_POLL_MS', 1000, 10, 60_000),
    schedulerConcurrency: integer(env, 'SCHEDULER_CONCURRENCY', 16, 1, 1000),
    schedulerBatch: integer(env, 'SCHEDULER_BATCH', 100, 1, 500),
  };
}
