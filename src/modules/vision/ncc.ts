// Normalised cross-correlation computed exactly, in double precision, where it decides
// something: the score a match reports, and whether a window is flat. OpenCV's map is
// computed in single precision through a Fourier transform; on a window of one colour its
// normalisation divides rounding noise by rounding noise, and a flat template scores 1.0
// everywhere. Both are guarded here rather than trusted.
import type { GrayImage } from './gray-image.js';

/** Below this standard deviation (in gray levels of 255) a window counts as flat: NCC is undefined there. */
export const FLAT_STD = 2;

export function stdOf(image: GrayImage): number {
  let sum = 0;
  let sum2 = 0;
  for (const v of image.data) {
    sum += v;
    sum2 += v * v;
  }
  const n = image.data.length;
  return Math.sqrt(Math.max(0, sum2 / n - (sum / n) ** 2));
}

/** Sums over any rectangle in constant time (integral images of values and squares), of the whole image or of one region of it. */
export class WindowStats {
  private readonly sum: Float64Array;
  private readonly sum2: Float64Array;
  private readonly stride: number;

  /** `region`: the part of the image to cover; `std` then takes coordinates relative to its top-left. */
  constructor(image: GrayImage, region: { x: number; y: number; w: number; h: number } = { x: 0, y: 0, w: image.width, h: image.height }) {
    const { data } = image;
    const { x: rx, y: ry, w: width, h: height } = region;
    this.stride = width + 1;
    this.sum = new Float64Array((width + 1) * (height + 1));
    this.sum2 = new Float64Array((width + 1) * (height + 1));
    for (let y = 0; y < height; y++) {
      let row = 0;
      let row2 = 0;
      const base = (ry + y) * image.width + rx;
      for (let x = 0; x < width; x++) {
        const v = data[base + x];
        row += v;
        row2 += v * v;
        const i = (y + 1) * this.stride + x + 1;
        this.sum[i] = this.sum[i - this.stride] + row;
        this.sum2[i] = this.sum2[i - this.stride] + row2;
      }
    }
  }

  /** Standard deviation of the w×h window at (x, y). */
  std(x: number, y: number, w: number, h: number): number {
    const s = this.stride;
    const a = y * s + x;
    const b = a + w;
    const c = (y + h) * s + x;
    const d = c + w;
    const n = w * h;
    const mean = (this.sum[d] - this.sum[b] - this.sum[c] + this.sum[a]) / n;
    const mean2 = (this.sum2[d] - this.sum2[b] - this.sum2[c] + this.sum2[a]) / n;
    return Math.sqrt(Math.max(0, mean2 - mean * mean));
  }
}

/**
 * The zero-mean normalised cross-correlation of `template` with the window of `image` whose
 * top-left is (x, y): 1 for the same picture up to brightness and contrast. A flat window
 * (or template) scores 0, never a made-up 1.
 */
export function exactNcc(image: GrayImage, x: number, y: number, template: GrayImage): number {
  const { width: w, height: h } = template;
  if (x < 0 || y < 0 || x + w > image.width || y + h > image.height) return 0;
  const n = w * h;
  let si = 0;
  let st = 0;
  for (let r = 0; r < h; r++) {
    const ib = (y + r) * image.width + x;
    const tb = r * w;
    for (let c = 0; c < w; c++) {
      si += image.data[ib + c];
      st += template.data[tb + c];
    }
  }
  const mi = si / n;
  const mt = st / n;
  let num = 0;
  let vi = 0;
  let vt = 0;
  for (let r = 0; r < h; r++) {
    const ib = (y + r) * image.width + x;
    const tb = r * w;
    for (let c = 0; c < w; c++) {
      const a = image.data[ib + c] - mi;
      const b = template.data[tb + c] - mt;
      num += a * b;
      vi += a * a;
      vt += b * b;
    }
  }
  if (vi / n < FLAT_STD * FLAT_STD || vt / n < FLAT_STD * FLAT_STD) return 0;
  return num / Math.sqrt(vi * vt);
}
