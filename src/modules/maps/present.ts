// Rows → the shapes callers see (app-api.md "Menu maps").
import type { Selectable } from 'kysely';
import type { MapExplorationsTable } from '../../db/schema-maps.js';
import { toIso } from '../../lib/clock.js';
import type { ExplorationRecord } from './schemas.js';

export type ExplorationRow = Selectable<MapExplorationsTable>;

export function presentExploration(row: ExplorationRow): ExplorationRecord {
  return {
    id: Number(row.id),
    device_id: row.device_id === null ? null : Number(row.device_id),
    package: row.package,
    state: row.state,
    state_message: row.state_message,
    screens_found: row.screens_found,
    transitions_found: row.transitions_found,
    actions: row.actions,
    max_screens: row.max_screens,
    max_minutes: row.max_minutes,
    do_not_touch: JSON.parse(row.do_not_touch) as string[],
    created_at: toIso(Number(row.created_at)),
    started_at: toIso(row.started_at === null ? null : Number(row.started_at)),
    finished_at: toIso(row.finished_at === null ? null : Number(row.finished_at)),
  };
}
