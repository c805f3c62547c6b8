// Writing and reading menu maps. A map is replaced whole, inside the transaction that ends its
// exploration: the old map's rows go (their screens and transitions by cascade) and the new
// ones come in, so a reader sees the old map or the new one, never a mix.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ExploreResult } from './explorer/types.js';

/** Rows per INSERT: well inside both engines' limits on bound parameters. */
const BATCH = 200;

export async function replaceMap(trx: Transaction<Database>, input: { userId: number; package: string; explorationId: number; result: Pick<ExploreResult, 'screens' | 'transitions'>; now: number }): Promise<void> {
  const { userId, now, result } = input;
  await trx.deleteFrom('menu_maps').where('user_id', '=', userId).where('package', '=', input.package).execute();
  const map = await trx
    .insertInto('menu_maps')
    .values({ user_id: userId, package: input.package, exploration_id: input.explorationId, screen_count: result.screens.length, transition_count: result.transitions.length, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const screens = result.screens.map((s, position) => ({ map_id: map.id, screen_id: s.screen_id, title: s.title, activity: s.activity, element_count: s.element_count, path: JSON.stringify(s.path), position }));
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
}
