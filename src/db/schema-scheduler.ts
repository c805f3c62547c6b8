// Table types of the scheduler (migration 0014): schedules and their occurrences.
import type { Generated } from 'kysely';
import type { OCCURRENCE_OUTCOMES, SCHEDULE_TARGETS } from '../core/values.js';

/** Schedules (migration 0014): a queue table; null macro/device/group ids mean it was deleted. */
export interface SchedulesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  macro_id: number | null;
  target: (typeof SCHEDULE_TARGETS)[number];
  device_id: number | null;
  group_id: number | null;
  cron: string;
  timezone: string;
  /** JSON object, or null for none. */
  args: string | null;
  enabled: number;
  disabled_reason: string | null;
  next_fire_at: number | null;
  last_fire_at: number | null;
  streak_from: number;
  locked_until: number | null;
  locked_by: string | null;
  created_at: number;
  updated_at: number;
}

/** One fire time of a schedule on one device (migration 0014); device_id 0 when a group had none. */
export interface ScheduleOccurrencesTable {
  id: Generated<number>;
  schedule_id: number;
  fire_at: number;
  device_id: number;
  outcome: (typeof OCCURRENCE_OUTCOMES)[number];
  reason: string | null;
  execution_id: string | null;
  run_id: number | null;
  created_at: number;
  updated_at: number;
  /** The run start's lease while a worker starts it (a `pending` occurrence is the start's queue row). */
  locked_until: number | null;
  locked_by: string | null;
}
