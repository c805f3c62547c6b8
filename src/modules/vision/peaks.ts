// Peaks of a correlation map and non-maximum suppression: the few places a template may be,
// out of a map with one score per pixel. Pure functions over plain arrays.

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
}

/** Intersection over union of two boxes (0 apart, 1 identical). */
export function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.w * a.h + b.w * b.h - inter);
}

/** Greedy non-maximum suppression: best first, each box dropped if it overlaps a kept one by more than `maxOverlap`. */
export function suppressOverlaps<T extends Box>(boxes: T[], maxOverlap: number, limit = Infinity): T[] {
  const kept: T[] = [];
  for (const box of [...boxes].sort((a, b) => b.score - a.score)) {
    if (kept.length >= limit) break;
    if (kept.every((k) => overlap(k, box) <= maxOverlap)) kept.push(box);
  }
  return kept;
}

export interface Peak {
  x: number;
  y: number;
  score: number;
}

/**
 * Local maxima (no greater neighbour among the 8 around) scoring at least `floor`, best first.
 * On a plateau only its first pixel in reading order counts, so a flat run yields one peak.
 * `accept` can veto a peak (a flat window) before it is counted against `limit`.
 */
export function findPeaks(map: Float32Array, cols: number, rows: number, floor: number, limit: number, accept: (x: number, y: number) => boolean = () => true): Peak[] {
  const found: Peak[] = [];
  for (let y = 0; y < rows; y++) {
    const row = y * cols;
    for (let x = 0; x < cols; x++) {
      const v = map[row + x];
      if (!(v >= floor)) continue; // also skips NaN
      let isPeak = true;
      for (let dy = -1; dy <= 1 && isPeak; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= rows) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if ((dx === 0 && dy === 0) || xx < 0 || xx >= cols) continue;
          const n = map[yy * cols + xx];
          // Strictly greater wins; an equal neighbour earlier in reading order wins the tie.
          if (n > v || (n === v && (dy < 0 || (dy === 0 && dx < 0)))) {
            isPeak = false;
            break;
          }
        }
      }
      if (isPeak) found.push({ x, y, score: v });
    }
  }
  found.sort((a, b) => b.score - a.score);
  const out: Peak[] = [];
  for (const peak of found) {
    if (out.length >= limit) break;
    if (accept(peak.x, peak.y)) out.push(peak);
  }
  return out;
}
