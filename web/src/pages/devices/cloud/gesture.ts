// What a pointer did on the live view, in device pixels: a click taps, a click held for
// LONG_PRESS_MS or more long-presses, a press that moved drags (a swipe). The picture is
// shown small (240 px for 1080), so a hand that shakes by a few screen pixels still taps.
// No imports: test/console/recorder-words.test.ts loads it under Node.

export interface Point {
  x: number;
  y: number;
}

export const LONG_PRESS_MS = 600;
/** A press that moved less than this share of the screen's width is not a drag (36 px of 1080). */
const DRAG_SHARE = 1 / 30;
const SWIPE_MS = { min: 100, max: 3000 };

export type Gesture =
  | ({ type: 'tap' } & Point)
  | ({ type: 'long_press'; ms: number } & Point)
  | { type: 'swipe'; from: Point; to: Point; ms: number };

export interface Size {
  width: number;
  height: number;
}

const clamp = (value: number, max: number) => Math.min(max - 1, Math.max(0, Math.floor(value)));

/** A place on the picture (client pixels, with the picture's box) as device pixels inside the screen. */
export function devicePoint(client: Point, box: { left: number; top: number; width: number; height: number }, size: Size): Point {
  return {
    x: clamp(((client.x - box.left) / box.width) * size.width, size.width),
    y: clamp(((client.y - box.top) / box.height) * size.height, size.height),
  };
}

/** The gesture of a press at `down` released at `up` after `ms`, both in device pixels. */
export function gestureOf(down: Point, up: Point, ms: number, size: Size): Gesture {
  const moved = Math.hypot(up.x - down.x, up.y - down.y);
  if (moved >= size.width * DRAG_SHARE) {
    return { type: 'swipe', from: down, to: up, ms: Math.round(Math.min(SWIPE_MS.max, Math.max(SWIPE_MS.min, ms))) };
  }
  if (ms >= LONG_PRESS_MS) return { type: 'long_press', x: down.x, y: down.y, ms: Math.round(ms) };
  return { type: 'tap', x: down.x, y: down.y };
}
