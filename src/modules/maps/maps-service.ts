// Reading and deleting learned maps: per account and package (app-api.md "Menu maps",
// decisions.md §12 `map_get`). Another account's map is simply not found.
import type { ServiceContext } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { toIso } from '../../lib/clock.js';
import { ownedImageIds } from '../images/index.js';
import type { ActionElement, PathStep } from './explorer/types.js';
import type { MenuMapRecord } from './schemas.js';
import type { ThumbnailStore } from './exploration-handler.js';
import { oldThumbnails } from './map-store.js';

type Caller = Pick<ServiceContext, 'userId'>;

export interface MapSummaryRecord {
  package: string;
  screen_count: number;
  transition_count: number;
  updated_at: string;
}

export class MapsService {
  constructor(
    private readonly db: Db,
    private readonly thumbnails?: Pick<ThumbnailStore, 'remove'>,
  ) {}

  async list(ctx: Caller): Promise<{ items: MapSummaryRecord[] }> {
    const rows = await this.db.kysely.selectFrom('menu_maps').select(['package', 'screen_count', 'transition_count', 'updated_at']).where('user_id', '=', ctx.userId).orderBy('package').execute();
    return { items: rows.map((r) => ({ package: r.package, screen_count: r.screen_count, transition_count: r.transition_count, updated_at: toIso(Number(r.updated_at)) })) };
  }

  /** The learned map, or null when the app has none. */
  async find(ctx: Caller, pkg: string): Promise<MenuMapRecord | null> {
    const map = await this.db.kysely.selectFrom('menu_maps').select(['id', 'package', 'updated_at']).where('user_id', '=', ctx.userId).where('package', '=', pkg).executeTakeFirst();
    if (!map) return null;
    const [{ screens, thumbnails }, transitions] = await Promise.all([
      this.screensOf(ctx.userId, map.id),
      this.db.kysely.selectFrom('menu_map_transitions').selectAll().where('map_id', '=', map.id).orderBy('position').execute(),
    ]);
    return {
      package: map.package,
      screens: screens.map((s) => ({
        screen_id: s.screen_id,
        title: s.title,
        activity: s.activity,
        element_count: s.element_count,
        // A thumbnail deleted from the library reads as none.
        thumbnail_image_id: s.thumbnail_image_id !== null && thumbnails.has(s.thumbnail_image_id) ? s.thumbnail_image_id : null,
        path: JSON.parse(s.path) as PathStep[],
      })),
      transitions: transitions.map((t) => ({
        from: t.from_screen,
        to: t.to_screen,
        action: t.action_type === 'tap' ? { type: 'tap' as const, element: JSON.parse(t.element ?? 'null') as ActionElement } : { type: 'back' as const, element: null },
      })),
      updated_at: toIso(Number(map.updated_at)),
    };
  }

  /** The map's screens in order, and which of their thumbnails the image library still holds. */
  private async screensOf(userId: number, mapId: number) {
    const screens = await this.db.kysely
      .selectFrom('menu_map_screens')
      .select(['screen_id', 'title', 'activity', 'element_count', 'path', 'thumbnail_image_id'])
      .where('map_id', '=', mapId)
      .orderBy('position')
      .execute();
    const ids = screens.flatMap((s) => (s.thumbnail_image_id === null ? [] : [s.thumbnail_image_id]));
    return { screens, thumbnails: ids.length ? await ownedImageIds(this.db.kysely, userId, ids) : new Set<string>() };
  }

  async get(ctx: Caller, pkg: string): Promise<MenuMapRecord> {
    const map = await this.find(ctx, pkg);
    if (!map) throw noMap(pkg);
    return map;
  }

  /** Deletes the map and its thumbnails. */
  async delete(ctx: ServiceContext, pkg: string): Promise<void> {
    const thumbnails = await oldThumbnails(this.db.kysely, ctx.userId, pkg);
    const result = await this.db.kysely.deleteFrom('menu_maps').where('user_id', '=', ctx.userId).where('package', '=', pkg).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw noMap(pkg);
    for (const id of thumbnails) await this.thumbnails?.remove(ctx, id).catch(() => undefined);
  }
}

const noMap = (pkg: string) => new NotFoundError(`No menu map of ${pkg} yet: explore the app first (POST /api/maps/explorations).`);
