// What one screen shows at a moment of the device's time (§15), computed from its clock in
// the state, never from a timer: the progress indicator while it loads, then the elements
// whose appear/hide window holds, with the scrolling content moved by its offset and clipped
// to the band, plus the scrolling container the UI tree lists.
import type { Bounds } from '../types.js';
import { type SimScreen, scrollsWithContent } from './app-schema.js';
import { SCROLL_CONTAINER_ID } from './app-rules.js';
import type { SimScreenClock } from './state.js';

/** Where the progress indicator of a loading screen sits (a 48 dp spinner in the middle). */
export const PROGRESS_BOUNDS: Bounds = { left: 472, top: 1132, right: 608, bottom: 1268 };
export const PROGRESS_CLASS = 'android.widget.ProgressBar';
export const PROGRESS_RESOURCE_ID = 'android:id/progress';
export const SCROLL_CONTAINER_CLASS = 'androidx.recyclerview.widget.RecyclerView';

const NEVER_ENTERED: SimScreenClock = { entered_at: 0, loading_ms: 0, scroll: 0 };

export type ScreenMoment =
  | { loading: true; elapsed: number }
  /** `since` is the time since the loading ended; `scroll` the offset, clamped to the content. */
  | { loading: false; since: number; scroll: number };

export function momentOf(screen: SimScreen, clock: SimScreenClock | undefined, now: number): ScreenMoment {
  const c = clock ?? NEVER_ENTERED;
  const elapsed = Math.max(0, now - c.entered_at);
  if (elapsed < c.loading_ms) return { loading: true, elapsed };
  return { loading: false, since: elapsed - c.loading_ms, scroll: Math.min(Math.max(0, c.scroll), maxScroll(screen)) };
}

/** How far the content can move: until its lowest element's bottom meets the band's bottom. */
export function maxScroll(screen: SimScreen): number {
  if (!screen.scroll) return 0;
  const lowest = Math.max(screen.scroll.top, ...screen.elements.filter((e) => scrollsWithContent(screen, e)).map((e) => e.bounds.bottom));
  return Math.max(0, lowest - screen.scroll.bottom);
}

/** Whether the element's appear/hide window holds `since` ms after the screen finished loading. */
export function isShown(element: { appear_after_ms?: number; hide_after_ms?: number }, since: number): boolean {
  const appear = element.appear_after_ms ?? 0;
  if (since < appear) return false;
  return element.hide_after_ms === undefined || since < appear + element.hide_after_ms;
}

/** An element of the scrolling content moved by `offset`: its drawn bounds and its visible part (null when outside the band). */
export function placeInBand(bounds: Bounds, band: { top: number; bottom: number }, offset: number): { drawn: Bounds; visible: Bounds } | null {
  const drawn = { ...bounds, top: bounds.top - offset, bottom: bounds.bottom - offset };
  if (drawn.bottom <= band.top || drawn.top >= band.bottom) return null;
  return { drawn, visible: { ...drawn, top: Math.max(drawn.top, band.top), bottom: Math.min(drawn.bottom, band.bottom) } };
}

export { SCROLL_CONTAINER_ID };
