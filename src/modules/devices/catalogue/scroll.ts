// Scrolling into view (decisions.md §16): swipe inside the first scrollable container (else
// the middle of the screen) until the selector names one element; each look is the waiting
// loop with no time to wait, so strictness and interrupts hold as everywhere else. The end of
// the content is reached when a swipe leaves the tree as it was.
import type { ElementWithCenter } from '../actions/find-element.js';
import type { Bounds } from '../hosts/types.js';
import type { ActionEnv } from './env.js';
import { ElementNotFoundError } from './errors.js';
import { readScreen } from './look.js';
import { fingerprint, firstScrollable } from './matching.js';
import { notFoundMessage } from './messages.js';
import type { Selector } from './selector.js';
import { DEFAULT_TIMEOUT_MS, waitFor } from './wait.js';

export const SCROLL_DIRECTIONS = ['down', 'up', 'left', 'right'] as const;
export type ScrollDirection = (typeof SCROLL_DIRECTIONS)[number];
export const DEFAULT_MAX_SWIPES = 10;
/** Slow enough that the content moves exactly the finger's distance (a fling moves it further). */
const SWIPE_MS = 400;
/** How long the screen may take to settle after a swipe. */
const SETTLE_MS = 3_000;

/** From and to of one swipe that moves the content in `direction` (down: the finger moves up). */
export function swipeIn(area: Bounds, direction: ScrollDirection) {
  const cx = Math.floor((area.left + area.right) / 2);
  const cy = Math.floor((area.top + area.bottom) / 2);
  const h = area.bottom - area.top;
  const w = area.right - area.left;
  const near = (a: number, span: number) => Math.floor(a + span * 0.2);
  const far = (a: number, span: number) => Math.floor(a + span * 0.8);
  switch (direction) {
    case 'down':
      return { from: { x: cx, y: far(area.top, h) }, to: { x: cx, y: near(area.top, h) } };
    case 'up':
      return { from: { x: cx, y: near(area.top, h) }, to: { x: cx, y: far(area.top, h) } };
    case 'right':
      return { from: { x: far(area.left, w), y: cy }, to: { x: near(area.left, w), y: cy } };
    case 'left':
      return { from: { x: near(area.left, w), y: cy }, to: { x: far(area.left, w), y: cy } };
  }
}

export interface ScrollResult {
  element: ElementWithCenter;
  swipes: number;
}

export async function scrollTo(env: ActionEnv, selector: Selector, options: { maxSwipes?: number; direction?: ScrollDirection } = {}): Promise<ScrollResult> {
  const maxSwipes = options.maxSwipes ?? DEFAULT_MAX_SWIPES;
  const direction = options.direction ?? 'down';
  await waitFor(env, null, { timeoutMs: DEFAULT_TIMEOUT_MS });
  let swipes = 0;
  let endReached = false;
  for (;;) {
    try {
      const element = await waitFor(env, selector, { timeoutMs: 0 });
      if (element) return { element, swipes };
    } catch (error) {
      if (!(error instanceof ElementNotFoundError)) throw error;
    }
    if (swipes >= maxSwipes) break;
    const before = await readScreen(env);
    const area = firstScrollable(before.tree)?.bounds ?? { left: 0, top: 0, right: before.size.width, bottom: before.size.height };
    const { from, to } = swipeIn(area, direction);
    await env.driver.swipe(from.x, from.y, to.x, to.y, SWIPE_MS);
    swipes += 1;
    await waitFor(env, null, { timeoutMs: SETTLE_MS });
    if (fingerprint((await readScreen(env, before.size)).tree) === fingerprint(before.tree)) {
      endReached = true;
      break;
    }
  }
  const look = await readScreen(env);
  const app = await env.driver.currentApp().catch(() => null);
  const spent = `${swipes} swipe${swipes === 1 ? '' : 's'} ${direction}`;
  const note = endReached ? 'The end of the content was reached.' : 'The end of the content was not reached.';
  throw new ElementNotFoundError(notFoundMessage({ selector, waitedMs: 0, spent, app, tree: look.tree, note }));
}
