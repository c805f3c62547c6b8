// Finding an element on the screen by its text or id and tapping its centre: the one rule for
// every caller, the SDK (`tap_text`, `tap_element`, `find_text`), block programs (`tap` by text
// or element, `wait_for_text`, `if_text`) and the tool server (`device_tap`), so an AI client
// and a macro tap the same element on the same screen.
import { NotFoundError } from '../../../core/errors.js';
import type { DeviceDriver, UiElement } from '../hosts/types.js';

export interface Point {
  x: number;
  y: number;
}

export type ElementWithCenter = UiElement & { center: Point };

export function centerOf(element: Pick<UiElement, 'bounds'>): Point {
  const { left, top, right, bottom } = element.bounds;
  return { x: Math.floor((left + right) / 2), y: Math.floor((top + bottom) / 2) };
}

export const withCenter = (element: UiElement): ElementWithCenter => ({ ...element, center: centerOf(element) });

/** The clickable one among matches first, as a finger would pick; else the first, in tree order. */
const pick = (matches: UiElement[]) => matches.find((e) => e.clickable) ?? matches[0];

/**
 * The element showing `text`: one whose text or description is exactly it (spaces around
 * ignored), else one whose text or description contains it, ignoring case.
 */
export function findByText(tree: UiElement[], text: string): UiElement | undefined {
  const wanted = text.trim();
  if (wanted === '') return undefined;
  const exact = tree.filter((e) => e.text.trim() === wanted || e.content_desc.trim() === wanted);
  if (exact.length > 0) return pick(exact);
  const lower = wanted.toLowerCase();
  const containing = tree.filter((e) => e.text.toLowerCase().includes(lower) || e.content_desc.toLowerCase().includes(lower));
  return containing.length > 0 ? pick(containing) : undefined;
}

export const findById = (tree: UiElement[], elementId: string): UiElement | undefined => tree.find((e) => e.element_id === elementId);

export async function findText(driver: DeviceDriver, text: string): Promise<ElementWithCenter | null> {
  const found = findByText(await driver.uiTree(), text);
  return found ? withCenter(found) : null;
}

/** The element showing `text`, with its centre; 404 `text_not_found` when the screen has none. */
export function requireText(tree: UiElement[], text: string): ElementWithCenter {
  const found = findByText(tree, text);
  if (!found) throw new NotFoundError(`No element on the screen shows the text "${text.slice(0, 200)}".`, 'text_not_found');
  return withCenter(found);
}

/** The element with this id, with its centre; 404 `element_not_found` when the tree has none. */
export function requireElement(tree: UiElement[], elementId: string): ElementWithCenter {
  const found = findById(tree, elementId);
  if (!found) throw new NotFoundError(`No element with the id "${elementId.slice(0, 200)}" on the screen.`, 'element_not_found');
  return withCenter(found);
}

/** Taps the centre of the element showing `text`; 404 `text_not_found` when the screen has none. */
export async function tapText(driver: DeviceDriver, text: string): Promise<ElementWithCenter> {
  const target = requireText(await driver.uiTree(), text);
  await driver.tap(target.center.x, target.center.y);
  return target;
}

/** Taps the centre of the element with this id in the current UI tree; 404 `element_not_found` otherwise. */
export async function tapElement(driver: DeviceDriver, elementId: string): Promise<ElementWithCenter> {
  const target = requireElement(await driver.uiTree(), elementId);
  await driver.tap(target.center.x, target.center.y);
  return target;
}
