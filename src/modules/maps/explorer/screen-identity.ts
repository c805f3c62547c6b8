// What makes two screens "the same screen" (decisions.md §13): the structure of the elements
// a person can see, as the set of (class, resource id) pairs, never their texts. A list with
// other rows, a field with other contents or a product page for another product is the same
// screen; a dialog (its own window in the tree) is a screen of its own. A set, not a list:
// a list of 3 rows and one of 30 share one identity.
import { createHash } from 'node:crypto';
import type { Bounds, UiElement } from '../../devices/index.js';

export interface ScreenArea {
  width: number;
  height: number;
}

/** An element is visible when its bounds are not empty and lie at least partly on the screen. */
export function isVisible(element: Pick<UiElement, 'bounds'>, area: ScreenArea): boolean {
  const b = element.bounds;
  if (b.right <= b.left || b.bottom <= b.top) return false;
  return b.right > 0 && b.bottom > 0 && b.left < area.width && b.top < area.height;
}

export function visibleElements(tree: UiElement[], area: ScreenArea): UiElement[] {
  return tree.filter((e) => isVisible(e, area));
}

/** The screen's id: `scr_` and 16 hex of a hash of its sorted, de-duplicated (class, resource id) pairs. */
export function screenIdOf(visible: UiElement[]): string {
  const pairs = [...new Set(visible.map((e) => `${e.class}\u0000${e.resource_id}`))].sort();
  return `scr_${createHash('sha256').update(pairs.join('\n')).digest('hex').slice(0, 16)}`;
}

/**
 * Everything the screen shows (texts, focus, positions included): two observations with the
 * same content mean an action changed nothing at all.
 */
export function contentOf(visible: UiElement[]): string {
  return createHash('sha256')
    .update(JSON.stringify(visible.map((e) => [e.class, e.resource_id, e.text, e.content_desc, e.bounds, e.focused ?? false, e.clickable])))
    .digest('hex');
}

/**
 * Which elements count as "the same control" for trying them: class and resource id, and for
 * an element without an id its text or description. Rows of one list share an id, so one row
 * stands for all of them (they open the same kind of screen).
 */
export function elementKeyOf(e: Pick<UiElement, 'class' | 'resource_id' | 'text' | 'content_desc'>): string {
  return e.resource_id ? `${e.class}|${e.resource_id}` : `${e.class}||${e.text || e.content_desc}`;
}

export function centerOf(b: Bounds): { x: number; y: number } {
  return { x: Math.floor((b.left + b.right) / 2), y: Math.floor((b.top + b.bottom) / 2) };
}

const TITLE_ID = /:id\/(title|alertTitle|toolbar_title|action_bar_title)$/;

/** A title a person recognises: the toolbar's or dialog's title, else the first text near the top, else the activity's short name. */
export function titleOf(visible: UiElement[], area: ScreenArea, activity: string | null): string {
  const byId = visible.find((e) => TITLE_ID.test(e.resource_id) && e.text.trim() !== '');
  if (byId) return byId.text.trim().slice(0, 200);
  const top = visible.find((e) => e.text.trim() !== '' && !e.editable && e.bounds.top < area.height * 0.25 && /TextView$/.test(e.class));
  if (top) return top.text.trim().slice(0, 200);
  if (activity) return activity.slice(activity.lastIndexOf('.') + 1);
  return 'Screen';
}
