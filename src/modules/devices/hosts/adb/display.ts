// Following the display's rotation. `wm size` always reports the natural (portrait) size, but
// once an app turns the screen, screencap, UI dump bounds and `input` coordinates are all in
// the rotated frame (2400×1080 for a 1080×2400 phone). What this process last saw of each
// device is kept here, from every screenshot (its size) and UI dump (its `rotation`), so a
// tap is checked against the screen as it is without asking the device first; a point that
// the last seen frame refuses is checked again after reading the rotation from the device
// (`dumpsys display`, as adbutils reads it), so a stale view never refuses a correct tap.
import type { ScreenSize } from '../types.js';

/** The first valid viewport's `orientation=N` (0–3) in `dumpsys display`, or null. */
export function rotationFromDisplayDump(output: string): number | null {
  const viewports = [...output.matchAll(/DisplayViewport\{([^}]*)\}/g)].map((m) => m[1]);
  const usable = viewports.filter((v) => /valid=true/.test(v));
  const internal = usable.find((v) => /type=INTERNAL/.test(v)) ?? usable[0];
  const m = internal ? /orientation=(\d)/.exec(internal) : null;
  return m ? Number(m[1]) % 4 : null;
}

/** `<hierarchy rotation="1">` of a UI dump, or null. */
export function rotationFromUiDump(xml: string): number | null {
  const m = /<hierarchy\b[^>]*\brotation="(\d)"/.exec(xml);
  return m ? Number(m[1]) % 4 : null;
}

export function rotatedSize(natural: ScreenSize, rotation: number): ScreenSize {
  return rotation % 2 === 1 ? { width: natural.height, height: natural.width, density: natural.density } : { ...natural };
}

/** The rotation each device (by slot) showed last in this process; shared by the drivers of one host. */
export class SeenRotations {
  private readonly seen = new Map<string, number>();

  get(slot: string): number {
    return this.seen.get(slot) ?? 0;
  }

  set(slot: string, rotation: number): void {
    this.seen.set(slot, rotation);
  }

  /** From a screenshot's size: a quarter turn when it is the natural size turned (a square screen tells nothing). */
  fromPicture(slot: string, natural: ScreenSize, width: number, height: number): void {
    if (natural.width === natural.height) return;
    if (width === natural.height && height === natural.width && this.get(slot) % 2 === 0) this.set(slot, 1);
    if (width === natural.width && height === natural.height && this.get(slot) % 2 === 1) this.set(slot, 0);
  }
}

/** The physical display ids of `dumpsys SurfaceFlinger --display-id` (Android 10+): `Display 4619827259835644672 (HWC display 0): …`. */
export function physicalDisplays(output: string): string[] {
  return [...output.matchAll(/^Display (\d+) \(HWC display \d+\)/gm)].map((m) => m[1]);
}

/**
 * The physical display that is on, from `cmd display get-displays` (Android 11+), as
 * mobile-mcp reads it: the first logical display in state ON whose uniqueId is `local:<id>`.
 */
export function displayThatIsOn(output: string): string | null {
  for (const line of output.split(/\r?\n/)) {
    if (!line.startsWith('Display id ') || !/, state ON,/.test(line)) continue;
    const m = /uniqueId "local:(\d+)"/.exec(line);
    if (m) return m[1];
  }
  return null;
}
