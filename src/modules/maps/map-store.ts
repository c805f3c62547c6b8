// Writing and reading menu maps. A map is replaced whole, inside the transaction that ends its
// exploration: the old map's rows go (their screens and transitions by cascade) and the new
// ones come in, so a reader sees the old map or the new one, never a mix.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ExploreResult } from './explorer/types.js';

/** Rows per INSERT: well inside both engines' limits on bound parameters. */
const BATCH = 200;

/** Replaces the map; answers the old map's thumbnails, for the caller to remove from the library once this commits. */
export async function replaceMap(
  trx: Transaction<Database>,
  input: { userId: number; package: string; explorationId: number; result: Pick<ExploreResult, 'screens' | 'transitions'>; thumbnails: ReadonlyMap<string, string>; now: number },
): Promise<string[]> {
  const { userId, now, result } = input;
  const old = await oldThumbnails(trx, userId, input.package);
  await trx.deleteFrom('menu_maps').where('user_id', '=', userId).where('package', '=', input.package).execute();
  const map = await trx
    .insertInto('menu_maps')
    .values({ user_id: userId, package: input.package, exploration_id: input.explorationId, screen_count: result.screens.length, transition_count: result.transitions.length, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const screens = result.screens.map((s, position) => ({ map_id: map.id, screen_id: s.screen_id, title: s.title, activity: s.activity, element_count: s.element_count, path: JSON.stringify(s.path), thumbnail_image_id: input.thumbnails.get(s.screen_id) ?? null, position }));
  for (let i = 0; i < screens.length; i += BATCH) await trx.insertInto('menu_map_screens').values(screens.slice(i, i + BATCH)).execute();
  const transitions = result.transitions.map((t, position) => ({
    map_id: map.id,
    position,
    from_screen: t.from,
    to_screen: t.to,
    action_type: t.action.type,
    element: t.action.type === 'tap' ? JSON.stringify(t.action.element) : null,
  }));
  for (let i = 0; i < transitions.length; i += BATCH) await trx.insertInto('menu_map_transitions').values(transitions.slice(i, i + BATCH)).execute();
  return old;
}

/** The thumbnails of the user's current map of the package. */
export async function oldThumbnails(db: Kysely<Database>, userId: number, pkg: string): Promise<string[]> {
  const rows = await db
    .selectFrom('menu_map_screens as s')
    .innerJoin('menu_maps as m', 'm.id', 's.map_id')
    .select('s.thumbnail_image_id')
    .where('m.user_id', '=', userId)
    .where('m.package', '=', pkg)
    .where('s.thumbnail_image_id', 'is not', null)
    .execute();
  return rows.map((r) => r.thumbnail_image_id as string);
}
