// How schedules and occurrences read (app-api.md "Scheduler"). A schedule whose macro, device
// or group was deleted lost that reference (ON DELETE SET NULL) and reads as disabled with the
// matching reason, whatever its stored flag; one a person disabled reads without a reason.
import type { Selectable } from 'kysely';
import type { ScheduleOccurrencesTable, SchedulesTable } from '../../db/schema.js';
import { toIso } from '../../lib/clock.js';
import { compact } from '../../lib/compact.js';
import { FireTimes, inZone } from './fire-times.js';
import type { DisabledReason, OccurrenceRecord, ScheduleRecord } from './schemas.js';

export type ScheduleRow = Selectable<SchedulesTable>;
export type OccurrenceRow = Selectable<ScheduleOccurrencesTable>;

/** How many upcoming fire times a read shows. */
export const NEXT_FIRES_SHOWN = 5;

/** Why a schedule cannot fire: a deleted reference, or the reason the service stored; null when it can (or a person disabled it). */
export function orphanReason(row: Pick<ScheduleRow, 'macro_id' | 'target' | 'device_id' | 'group_id'>): DisabledReason | null {
  if (row.macro_id === null) return 'macro_deleted';
  if (row.target === 'device' && row.device_id === null) return 'device_deleted';
  if (row.target === 'group' && row.group_id === null) return 'group_deleted';
  return null;
}

export function isActive(row: ScheduleRow): boolean {
  return row.enabled === 1 && orphanReason(row) === null;
}

export function presentSchedule(row: ScheduleRow): ScheduleRecord {
  const active = isActive(row);
  const reason = row.enabled === 1 ? orphanReason(row) : (row.disabled_reason as DisabledReason | null);
  const next = active && row.next_fire_at !== null ? row.next_fire_at : null;
  const upcoming = next === null ? null : [next, ...new FireTimes(row).upcoming(next, NEXT_FIRES_SHOWN - 1)].map((at) => inZone(at, row.timezone));
  return compact({
    id: row.id,
    name: row.name,
    macro_id: row.macro_id,
    device_id: row.device_id,
    group_id: row.group_id,
    cron: row.cron,
    timezone: row.timezone,
    args: row.args === null ? {} : (JSON.parse(row.args) as Record<string, unknown>),
    enabled: active,
    next_fire_at: toIso(next),
    next_fires: upcoming,
    disabled_reason: reason,
    last_fire_at: toIso(row.last_fire_at),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  });
}

export function presentOccurrence(row: OccurrenceRow): OccurrenceRecord {
  return compact({
    id: row.id,
    schedule_id: row.schedule_id,
    fire_at: toIso(row.fire_at),
    device_id: row.device_id === 0 ? null : row.device_id,
    outcome: row.outcome as OccurrenceRecord['outcome'],
    reason: row.reason,
    execution_id: row.execution_id,
    run_id: row.run_id,
  });
}
