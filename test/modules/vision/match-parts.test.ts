// The pure parts of the matcher: the scale grid, peak finding with suppression, and the exact
// correlation that decides scores.
import { describe, expect, it } from 'vitest';
import { exactNcc, WindowStats } from '../../../src/modules/vision/ncc.js';
import { findPeaks, overlap, suppressOverlaps } from '../../../src/modules/vision/peaks.js';
import { coarseSteps, scaleOf, stepRange } from '../../../src/modules/vision/scales.js';

describe('the scale grid', () => {
  it('runs from 0.5× to 2× in fine steps of 2^(1/20), coarse every fourth, 1× exactly', () => {
    expect(stepRange(0.5, 2)).toEqual({ low: -20, high: 20 });
    expect(coarseSteps(-20, 20)).toEqual([-20, -16, -12, -8, -4, 0, 4, 8, 12, 16, 20]);
    expect(scaleOf(0)).toBe(1);
    expect(scaleOf(-20)).toBeCloseTo(0.5, 12);
    expect(stepRange(1, 1)).toEqual({ low: 0, high: 0 });
    expect(coarseSteps(0, 0)).toEqual([0]);
    // Ends that fall between coarse steps are tried too.
    expect(coarseSteps(-7, 7)).toEqual([-7, -4, 0, 4, 7]);
  });
});

describe('peaks and suppression', () => {
  it('finds local maxima above the floor, best first, one per plateau, vetoes counted out', () => {
    // A neighbour that scores higher (8-neighbourhood) makes a pixel no peak; the 0.7 plateau is one peak.
    const map = new Float32Array([0.9, 0.1, 0.1, 0.1, 0.7, 0.1, 0.1, 0.1, 0.1, 0.7, 0.1, 0.85, 0.95, 0.1, 0.1]);
    expect(findPeaks(map, 5, 3, 0.6, 10)).toEqual([
      { x: 2, y: 2, score: expect.closeTo(0.95, 5) },
      { x: 0, y: 0, score: expect.closeTo(0.9, 5) },
      { x: 4, y: 0, score: expect.closeTo(0.7, 5) },
    ]);
    expect(findPeaks(map, 5, 3, 0.6, 10, (x) => x !== 2).map((p) => p.x)).toEqual([0, 4]);
    expect(findPeaks(map, 5, 3, 0.6, 1)).toHaveLength(1);
    expect(findPeaks(new Float32Array([Number.NaN, 0.9]), 2, 1, 0.5, 5)).toHaveLength(1);
  });

  it('keeps the best of overlapping boxes and every box apart', () => {
    const a = { x: 0, y: 0, w: 10, h: 10, score: 0.9 };
    const b = { x: 2, y: 0, w: 10, h: 10, score: 0.95 };
    const c = { x: 50, y: 50, w: 10, h: 10, score: 0.5 };
    expect(overlap(a, a)).toBe(1);
    expect(overlap(a, c)).toBe(0);
    expect(suppressOverlaps([a, b, c], 0.3)).toEqual([b, c]);
    expect(suppressOverlaps([a, b, c], 0.3, 1)).toEqual([b]);
  });
});

describe('exact normalised correlation', () => {
  const image = { width: 4, height: 3, data: new Uint8Array([10, 200, 10, 50, 200, 10, 200, 50, 10, 200, 10, 50]) };

  it('is 1 for the same pattern at another brightness and contrast, -1 for its negative', () => {
    const same = { width: 2, height: 2, data: new Uint8Array([10, 200, 200, 10]) };
    expect(exactNcc(image, 0, 0, same)).toBeCloseTo(1, 9);
    expect(exactNcc(image, 0, 0, { ...same, data: new Uint8Array([60, 120, 120, 60]) })).toBeCloseTo(1, 9);
    expect(exactNcc(image, 0, 0, { ...same, data: new Uint8Array([200, 10, 10, 200]) })).toBeCloseTo(-1, 9);
  });

  it('is 0 on a flat window or with a flat template, and outside the image', () => {
    const flatImage = { width: 3, height: 3, data: new Uint8Array(9).fill(77) };
    expect(exactNcc(flatImage, 0, 0, { width: 2, height: 2, data: new Uint8Array([0, 255, 255, 0]) })).toBe(0);
    expect(exactNcc(image, 0, 0, { width: 2, height: 2, data: new Uint8Array(4).fill(9) })).toBe(0);
    expect(exactNcc(image, 3, 2, { width: 2, height: 2, data: new Uint8Array([0, 255, 255, 0]) })).toBe(0);
  });

  it('window statistics agree with a direct count, for the whole image and a region of it', () => {
    const stats = new WindowStats(image);
    const region = new WindowStats(image, { x: 1, y: 1, w: 3, h: 2 });
    const direct = (x: number, y: number, w: number, h: number) => {
      const v: number[] = [];
      for (let r = y; r < y + h; r++) for (let c = x; c < x + w; c++) v.push(image.data[r * 4 + c]);
      const m = v.reduce((s, n) => s + n, 0) / v.length;
      return Math.sqrt(v.reduce((s, n) => s + (n - m) ** 2, 0) / v.length);
    };
    expect(stats.std(1, 1, 2, 2)).toBeCloseTo(direct(1, 1, 2, 2), 9);
    expect(region.std(0, 0, 2, 2)).toBeCloseTo(direct(1, 1, 2, 2), 9);
    expect(stats.std(0, 0, 4, 3)).toBeCloseTo(direct(0, 0, 4, 3), 9);
  });
});
