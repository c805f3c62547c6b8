// Which selector a recorded step gets (decisions.md §18): the element at the point, then the
// first selector of §18's order that names it alone on the screen read just before the input:
// resource_id, text, desc, resource_id or text with index; an image crop when the element has
// no usable attribute (the caller cuts it); coordinates last, marked fragile. Every rung that
// names the element is kept as a candidate, in that order, coordinates last. Pure functions of
// the tree, counted with the catalogue's own matching, so "unique" means what a replay finds.
import { type Bounds, elementMatches, isVisible, type ScreenSize, type Selector, type UiElement } from '../devices/index.js';

export const CANDIDATE_KINDS = ['resource_id', 'text', 'desc', 'indexed', 'image', 'coordinates'] as const;
export type CandidateKind = (typeof CANDIDATE_KINDS)[number];

export interface Point {
  x: number;
  y: number;
}

/** A way to name a step's target: a §16 selector, or (kind `coordinates`) the point itself. */
export interface Candidate {
  kind: CandidateKind;
  selector: Selector | Point;
}

/** Longest attribute a selector may carry (the Selector schema's limit). */
const MAX_VALUE = 500;

const contains = (b: Bounds, p: Point) => p.x >= b.left && p.x < b.right && p.y >= b.top && p.y < b.bottom;
const area = (b: Bounds) => (b.right - b.left) * (b.bottom - b.top);

/**
 * The element a point names: the smallest (the deepest) element whose bounds hold the point;
 * among equals the clickable one, then the later in tree order (a child follows its parent).
 */
export function elementAt(tree: readonly UiElement[], point: Point): UiElement | null {
  let best: UiElement | null = null;
  for (const e of tree) {
    if (!contains(e.bounds, point)) continue;
    if (best === null) {
      best = e;
      continue;
    }
    const [a, b] = [area(e.bounds), area(best.bounds)];
    if (a < b || (a === b && (e.clickable || !best.clickable))) best = e;
  }
  return best;
}

/** The elements a selector names on this screen, in tree order (index not applied). */
export function matchesIn(tree: readonly UiElement[], size: ScreenSize, selector: Selector): UiElement[] {
  return tree.filter((e) => isVisible(e, size) && elementMatches(e, selector));
}

/**
 * `com.example.feed:id/save` reads as `save` (§16 matches it so), unless that names more than
 * the full id does; the framework's own ids (`android:id/button2`) stay whole, since the short
 * form says nothing of what the element is.
 */
function resourceIdSelector(tree: readonly UiElement[], size: ScreenSize, id: string): Selector {
  const short = id.includes(':id/') ? id.slice(id.indexOf(':id/') + 4) : id;
  if (short === id || short.length === 0 || id.startsWith('android:id/')) return { resource_id: id };
  return matchesIn(tree, size, { resource_id: short }).length === matchesIn(tree, size, { resource_id: id }).length ? { resource_id: short } : { resource_id: id };
}

const usable = (value: string) => value.trim().length > 0 && value.length <= MAX_VALUE;

export interface TargetChoice {
  /** The selectors of rungs 1 to 4 that name the element, in §18's order. */
  selectors: Candidate[];
  /** True when no attribute names it: the caller cuts an image crop of its bounds. */
  needsCrop: boolean;
}

/** The tree selectors of §18's order that name `element` alone (with index where it shares them). */
export function selectorsFor(tree: readonly UiElement[], size: ScreenSize, element: UiElement): TargetChoice {
  const unique: Candidate[] = [];
  const indexed: Candidate[] = [];
  const consider = (kind: 'resource_id' | 'text' | 'desc', selector: Selector, indexable: boolean) => {
    const matches = matchesIn(tree, size, selector);
    const at = matches.indexOf(element);
    if (at < 0) return;
    if (matches.length === 1) unique.push({ kind, selector });
    else if (indexable) indexed.push({ kind: 'indexed', selector: { ...selector, index: at } });
  };
  if (usable(element.resource_id)) consider('resource_id', resourceIdSelector(tree, size, element.resource_id), true);
  if (usable(element.text)) consider('text', { text: element.text.trim() }, true);
  if (usable(element.content_desc)) consider('desc', { desc: element.content_desc.trim() }, false);
  const selectors = [...unique, ...indexed];
  const croppable = element.bounds.right - element.bounds.left >= 8 && element.bounds.bottom - element.bounds.top >= 8;
  return { selectors, needsCrop: selectors.length === 0 && croppable };
}

/** A dialog's button (an AlertDialog's `android:id/button1..3`): a dialog that may come at other times. */
export const isDialogButton = (element: UiElement | null) => element !== null && /^android:id\/button[123]$/.test(element.resource_id);
