// Reading a screenshot back: decode with sharp and look at pixels, so tests check what the
// picture shows, not how it was made.
import sharp from 'sharp';
import type { Bounds } from '../../../../../src/modules/devices/hosts/types.js';

export interface Decoded {
  width: number;
  height: number;
  format: string;
  pixel(x: number, y: number): [number, number, number];
  /** Raw RGB of a rectangle, for before/after comparisons. */
  region(b: Bounds): Buffer;
}

export async function decode(image: Buffer): Promise<Decoded> {
  const meta = await sharp(image).metadata();
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => (y * info.width + x) * 3;
  return {
    width: info.width,
    height: info.height,
    format: meta.format ?? '',
    pixel: (x, y) => [data[at(x, y)], data[at(x, y) + 1], data[at(x, y) + 2]],
    region: (b) => {
      const rows: Buffer[] = [];
      for (let y = b.top; y < b.bottom; y++) rows.push(data.subarray(at(b.left, y), at(b.right, y)));
      return Buffer.concat(rows);
    },
  };
}

export function hex(rgb: [number, number, number]): string {
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('').toUpperCase()}`;
}

/** True when two colours are within `tolerance` on every channel (anti-aliasing, JPEG). */
export function near(a: [number, number, number], b: string, tolerance = 6): boolean {
  const n = Number.parseInt(b.slice(1), 16);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return a.every((c, i) => Math.abs(c - rgb[i]) <= tolerance);
}
