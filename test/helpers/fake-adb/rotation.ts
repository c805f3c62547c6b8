// A rotated display, as Android reports it: screencap, UI dump bounds and `input` coordinates
// are all in the rotated frame (2400×1080 for a 1080×2400 phone turned a quarter), while
// `wm size` keeps the natural size. ROTATION_90 turns the picture a quarter counter-clockwise.
import type { Bounds } from '../../../src/modules/devices/hosts/types.js';

export type Rotation = 0 | 1 | 2 | 3;

export interface NaturalSize {
  width: number;
  height: number;
}

export function displaySize(rotation: Rotation, n: NaturalSize): NaturalSize {
  return rotation % 2 === 1 ? { width: n.height, height: n.width } : { ...n };
}

/** A pixel of the rotated display → the same pixel of the natural (portrait) screen. */
export function toNatural(rotation: Rotation, n: NaturalSize, x: number, y: number): [number, number] {
  const W = n.width;
  const H = n.height;
  if (rotation === 1) return [W - 1 - y, x];
  if (rotation === 2) return [W - 1 - x, H - 1 - y];
  if (rotation === 3) return [y, H - 1 - x];
  return [x, y];
}

/** Bounds on the natural screen → bounds on the rotated display (right/bottom exclusive). */
export function boundsToDisplay(rotation: Rotation, n: NaturalSize, b: Bounds): Bounds {
  const W = n.width;
  const H = n.height;
  if (rotation === 1) return { left: b.top, top: W - b.right, right: b.bottom, bottom: W - b.left };
  if (rotation === 2) return { left: W - b.right, top: H - b.bottom, right: W - b.left, bottom: H - b.top };
  if (rotation === 3) return { left: H - b.bottom, top: b.left, right: H - b.top, bottom: b.right };
  return { ...b };
}

/** What sharp's rotate() (clockwise degrees) needs to draw the natural picture on the rotated display. */
export function clockwiseDegrees(rotation: Rotation): number {
  return [0, 270, 180, 90][rotation];
}
