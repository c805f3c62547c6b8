// Which elements of a UI tree a selector names, which of them a person could see, and whether
// the screen is still loading (decisions.md §15, §16). Pure functions of the tree, so both
// hosts and every surface agree.
import type { Bounds, ScreenSize, UiElement } from '../hosts/types.js';
import type { Selector } from './selector.js';

export type TreeElement = UiElement;

/** §15: a screen that is loading shows one ProgressBar with this id. */
export const PROGRESS_ID = 'android:id/progress';

const trimmed = (s: string) => s.trim();

function resourceIdMatches(actual: string, wanted: string): boolean {
  if (actual === wanted) return true;
  // `sign_in` also matches `com.example.shop:id/sign_in`; a full id must match exactly.
  return !wanted.includes(':id/') && actual.endsWith(`:id/${wanted}`);
}

/** Whether one element meets every tree condition of the selector (index and vision keys aside). */
export function elementMatches(e: TreeElement, s: Selector): boolean {
  if (s.text !== undefined && trimmed(e.text) !== trimmed(s.text)) return false;
  if (s.text_contains !== undefined && !e.text.includes(s.text_contains)) return false;
  if (s.text_matches !== undefined && !new RegExp(s.text_matches).test(e.text)) return false;
  if (s.resource_id !== undefined && !resourceIdMatches(e.resource_id, s.resource_id)) return false;
  if (s.desc !== undefined && trimmed(e.content_desc) !== trimmed(s.desc)) return false;
  if (s.desc_contains !== undefined && !e.content_desc.includes(s.desc_contains)) return false;
  if (s.class_name !== undefined && e.class !== s.class_name) return false;
  if (s.clickable !== undefined && e.clickable !== s.clickable) return false;
  if (s.editable !== undefined && e.editable !== s.editable) return false;
  if (s.scrollable !== undefined && (e.scrollable === true) !== s.scrollable) return false;
  return true;
}

const inside = (b: Bounds, size: ScreenSize) => b.left >= 0 && b.top >= 0 && b.right <= size.width && b.bottom <= size.height && b.right > b.left && b.bottom > b.top;

/**
 * Visible: bounds inside the screen and not empty. Elements under the soft keyboard are not
 * in the tree at all (the window is resized, §15; uiautomator dumps the same), so the tree's
 * presence already says "not under the keyboard".
 */
export const isVisible = (e: TreeElement, size: ScreenSize) => inside(e.bounds, size);

/** A progress indicator covers the screen: the tree shows the §15 loading spinner and nothing a person could act on. */
export function isLoading(tree: readonly TreeElement[]): boolean {
  const spinner = tree.find((e) => e.resource_id === PROGRESS_ID && /ProgressBar$/.test(e.class));
  if (!spinner) return false;
  return !tree.some((e) => e !== spinner && (e.clickable || e.editable || e.text.trim() !== ''));
}

/** Two reads of the screen are the same screen when this is equal. */
export const fingerprint = (tree: readonly TreeElement[]) => JSON.stringify(tree.map((e) => [e.element_id, e.class, e.text, e.resource_id, e.content_desc, e.bounds, e.clickable, e.editable, e.focused ?? false]));

/** The first scrollable container (§15: a RecyclerView with `scrollable: true`), if any. */
export const firstScrollable = (tree: readonly TreeElement[]) => tree.find((e) => e.scrollable === true);
