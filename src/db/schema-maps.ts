// Table types of menu maps (migration 0016): explorations (also their job's queue rows) and
// the maps they learn, one per account and package, with screens and transitions.
import type { Generated } from 'kysely';
import type { ExplorationState, MapActionType } from '../core/values.js';

export interface MapExplorationsTable {
  id: Generated<number>;
  user_id: number;
  /** Null once the device is deleted; the exploration's record stays. */
  device_id: number | null;
  package: string;
  state: ExplorationState;
  state_message: string | null;
  max_screens: number;
  max_minutes: number;
  /** JSON array of phrases: the do-not-touch list in force. */
  do_not_touch: string;
  screens_found: Generated<number>;
  transitions_found: Generated<number>;
  actions: Generated<number>;
  /** The device lease the exploration holds while it is queued or running (decisions.md §9). */
  lease_id: string | null;
  locked_until: number | null;
  locked_by: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  updated_at: number;
}

export interface MenuMapsTable {
  id: Generated<number>;
  user_id: number;
  package: string;
  /** The exploration that learned it (null once that record is gone). */
  exploration_id: number | null;
  screen_count: number;
  transition_count: number;
  created_at: number;
  updated_at: number;
}

export interface MenuMapScreensTable {
  map_id: number;
  /** `scr_` + 16 hex of the screen's structure. */
  screen_id: string;
  title: string;
  activity: string | null;
  element_count: number;
  /** JSON array of path steps from the app's start. */
  path: string;
  /** `img_…` in the owner's image library, or null. */
  thumbnail_image_id: string | null;
  /** Order of discovery. */
  position: number;
}

export interface MenuMapTransitionsTable {
  map_id: number;
  position: number;
  from_screen: string;
  to_screen: string;
  action_type: MapActionType;
  /** JSON `{resource_id, text, content_desc, class, bounds}`; null for BACK. */
  element: string | null;
}
