// One look at the screen for a selector: the tree, and the elements the selector names that
// a person could see, in tree order. Image and OCR selectors look at the picture instead
// (the vision engines), and answer stand-in elements with the match's bounds.
import { type ElementWithCenter, withCenter } from '../actions/find-element.js';
import type { ScreenSize } from '../hosts/types.js';
import type { ActionEnv } from './env.js';
import { elementMatches, isVisible, type TreeElement } from './matching.js';
import type { Selector } from './selector.js';

export const IMAGE_THRESHOLD_DEFAULT = 0.9;

export interface Look {
  tree: TreeElement[];
  size: ScreenSize;
}

const standIn = (id: string, cls: string, text: string, bounds: ElementWithCenter['bounds']): ElementWithCenter =>
  withCenter({ element_id: id, class: cls, text, resource_id: '', content_desc: '', bounds, clickable: false, editable: false, scrollable: false });

export async function readScreen(env: ActionEnv, size?: ScreenSize): Promise<Look> {
  const [tree, known] = await Promise.all([env.driver.uiTree(), size ?? env.driver.screenSize()]);
  return { tree, size: known };
}

/** Every visible element the selector names now, before `index` is applied. */
export async function matchesOn(env: ActionEnv, selector: Selector, look: Look): Promise<ElementWithCenter[]> {
  if (selector.image_id !== undefined) {
    const [best] = await env.vision.find(env.owner, env.driver, { imageId: selector.image_id, threshold: selector.threshold ?? IMAGE_THRESHOLD_DEFAULT });
    return best ? [standIn(`image:${selector.image_id}`, 'image', '', { left: best.x, top: best.y, right: best.x + best.w, bottom: best.y + best.h })] : [];
  }
  if (selector.ocr_text !== undefined) {
    const wanted = selector.ocr_text;
    const lines = await env.vision.readText(env.driver, { ocr: true });
    return lines.filter((l) => l.text.includes(wanted)).map((l, i) => standIn(`ocr:${i}`, 'ocr', l.text, l.bounds));
  }
  return look.tree.filter((e) => isVisible(e, look.size) && elementMatches(e, selector)).map(withCenter);
}

/** `index` picks among the matches; without it every match stays (strictness is the caller's). */
export function pickIndex(selector: Selector, matches: ElementWithCenter[]): ElementWithCenter[] {
  if (selector.index === undefined) return matches;
  const picked = matches[selector.index];
  return picked ? [picked] : [];
}
