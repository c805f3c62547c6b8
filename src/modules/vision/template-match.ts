// Multi-scale template matching, coarse to fine, on gray pictures (synchronous: the caller
// decides which thread runs it). A template cropped on one device must be found on a screen
// of another density, so it is tried from 0.5× to 2×, but not by sweeping the full screen at
// every scale (about 180 ms each at 1080×2400):
//
// 1. Coarse: screen and template are shrunk by one factor, chosen so the template's size
//    (square root of its area) is about COARSE_SIDE px at the smallest scale (within limits);
//    OpenCV's normalised correlation (TM_CCOEFF_NORMED) runs at each coarse scale step, and
//    its peaks above a lowered floor (flat windows vetoed) become candidates, merged across
//    scales by overlap.
// 2. Fine: each candidate is searched at full resolution in a small window around it, at its
//    coarse step and the fine steps around it (±2, ±1, then halves), keeping the best.
// 3. Confirm: the best placement's score is recomputed exactly (ncc.ts); those at or above
//    the threshold are kept, overlaps suppressed, best first.
import type { GrayImage } from './gray-image.js';
import { exactNcc, FLAT_STD, stdOf, WindowStats } from './ncc.js';
import { type CvMat, cvErrorMessage, MatScope, type OpenCv } from './opencv.js';
import { findPeaks, suppressOverlaps } from './peaks.js';
import { COARSE_STRIDE, coarseSteps, scaleOf, stepRange } from './scales.js';
import { TemplateUnusableError, VisionUnavailableError } from './errors.js';

export interface MatchOptions {
  /** Lowest score (normalised correlation, -1..1) a match must reach. */
  threshold: number;
  minScale: number;
  maxScale: number;
  /** At most this many matches are answered (the best ones). */
  maxMatches: number;
}

/** One place the template was found: top-left, size on the screen, score and the scale it matched at. */
export interface TemplateMatch {
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
  scale: number;
}

/** What a match did, for tests and benchmarks: proof it searched coarse to fine. */
export interface MatchTrace {
  coarseFactor: number;
  coarseScales: number;
  candidates: number;
  fineSearches: number;
  /** Screen pixels correlated at full resolution (a blind sweep would be scales × screen area). */
  fullResolutionPixels: number;
  /** Time spent in each pass, in milliseconds. */
  coarseMs: number;
  fineMs: number;
}

export function emptyTrace(): MatchTrace {
  return { coarseFactor: 1, coarseScales: 0, candidates: 0, fineSearches: 0, fullResolutionPixels: 0, coarseMs: 0, fineMs: 0 };
}

/** The template's size (square root of its area) at the smallest scale, in the coarse pass, and its least shorter side there. */
const COARSE_SIDE = 12;
const COARSE_MIN_SIDE = 4;
/** The coarse screen keeps at least this fraction of the size: below it a large template (a full-width button) is a smear of a few pixels and its coarse peak unreliable. */
const COARSE_MIN_FACTOR = 0.125;
/** Smallest template side, in pixels, worth correlating at any pass. */
const MIN_SIDE = 6;
export const MIN_TEMPLATE_SIDE = 8;
/** How far below the threshold a coarse peak may score and still be looked at closely. */
const COARSE_SLACK = 0.3;
const COARSE_FLOOR = 0.35;
/** How far below the threshold a full-resolution score at the nearest coarse steps may be and still be refined. */
const FINE_SLACK = 0.15;
/** Matches overlapping more than this (intersection over union) are one match. */
const MAX_OVERLAP = 0.3;

export function matchTemplateGray(cv: OpenCv, screen: GrayImage, template: GrayImage, options: MatchOptions, trace?: MatchTrace): TemplateMatch[] {
  if (Math.min(template.width, template.height) < MIN_TEMPLATE_SIDE) throw new TemplateUnusableError(`it is ${template.width}×${template.height} pixels; a template needs at least ${MIN_TEMPLATE_SIDE} pixels a side.`);
  if (stdOf(template) < FLAT_STD) throw new TemplateUnusableError('it is a single flat colour, which normalised correlation cannot place. Crop a region with some detail (an edge, a glyph).');
  const scope = new MatScope(cv);
  try {
    return new Search(scope, screen, template, options, trace).run();
  } catch (error) {
    if (error instanceof TemplateUnusableError) throw error;
    throw new VisionUnavailableError('opencv', cvErrorMessage(cv, error));
  } finally {
    scope.close();
  }
}

interface Candidate {
  k: number;
  cx: number;
  cy: number;
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
}

/** One search: the Mats it made live in its scope, and the resized templates are made once per scale step. */
class Search {
  private readonly cv: OpenCv;
  private readonly screenMat: CvMat;
  private readonly templateMat: CvMat;
  private readonly fineTemplates = new Map<number, { mat: CvMat; gray: GrayImage }>();
  private readonly range: { low: number; high: number };
  private readonly trace: MatchTrace;

  constructor(
    private readonly scope: MatScope,
    private readonly screen: GrayImage,
    private readonly template: GrayImage,
    private readonly options: MatchOptions,
    trace?: MatchTrace,
  ) {
    this.cv = scope.cv;
    this.screenMat = this.matOf(screen);
    this.templateMat = this.matOf(template);
    this.range = stepRange(options.minScale, options.maxScale);
    this.trace = trace ?? emptyTrace();
  }

  run(): TemplateMatch[] {
    const steps = this.usableSteps();
    if (steps.length === 0) return [];
    let started = performance.now();
    const candidates = this.coarse(steps);
    this.trace.candidates = candidates.length;
    this.trace.coarseMs += performance.now() - started;
    started = performance.now();
    const confirmed: TemplateMatch[] = [];
    for (const candidate of candidates) {
      const best = this.refine(candidate);
      if (!best) continue;
      const score = exactNcc(this.screen, best.x, best.y, this.fineTemplate(best.k).gray);
      if (score >= this.options.threshold) confirmed.push({ x: best.x, y: best.y, w: best.w, h: best.h, score: round4(score), scale: round4(scaleOf(best.k)) });
    }
    this.trace.fineMs += performance.now() - started;
    return suppressOverlaps(confirmed, MAX_OVERLAP, this.options.maxMatches);
  }

  private matOf(image: GrayImage): CvMat {
    const mat = this.scope.mat(image.height, image.width, this.cv.CV_8UC1);
    mat.data.set(image.data);
    return mat;
  }

  private sizeAt(k: number, factor = 1): { w: number; h: number } {
    const s = scaleOf(k) * factor;
    return { w: Math.round(this.template.width * s), h: Math.round(this.template.height * s) };
  }

  /** Fine steps at which the template fits on the screen and keeps enough pixels. */
  private usableSteps(): number[] {
    const out: number[] = [];
    for (let k = this.range.low; k <= this.range.high; k++) {
      const { w, h } = this.sizeAt(k);
      if (Math.min(w, h) >= MIN_SIDE && w <= this.screen.width && h <= this.screen.height) out.push(k);
    }
    return out;
  }

  private resized(source: CvMat, w: number, h: number): CvMat {
    const out = this.scope.mat();
    const shrinking = w * h < source.cols * source.rows;
    this.cv.resize(source, out, new this.cv.Size(w, h), 0, 0, shrinking ? this.cv.INTER_AREA : this.cv.INTER_LINEAR);
    return out;
  }

  private coarse(usable: number[]): Candidate[] {
    const low = usable[0];
    const high = usable[usable.length - 1];
    // Sized by the template's area (a wide line of text keeps its length), with its shorter
    // side kept at COARSE_MIN_SIDE px or more.
    const side = Math.sqrt(this.template.width * this.template.height) * scaleOf(low);
    const shorter = Math.min(this.template.width, this.template.height) * scaleOf(low);
    const factor = Math.min(1, Math.max(COARSE_SIDE / side, COARSE_MIN_SIDE / shorter, COARSE_MIN_FACTOR));
    const smallest = shorter * factor;
    this.trace.coarseFactor = factor;
    const cw = Math.max(1, Math.round(this.screen.width * factor));
    const ch = Math.max(1, Math.round(this.screen.height * factor));
    const coarseScreen = factor === 1 ? this.screenMat : this.resized(this.screenMat, cw, ch);
    const stats = new WindowStats({ width: cw, height: ch, data: coarseScreen.data.slice() });
    const floor = Math.max(COARSE_FLOOR, this.options.threshold - COARSE_SLACK);
    const limit = Math.min(60, this.options.maxMatches * 2 + 10);
    const all: Candidate[] = [];
    for (const k of coarseSteps(low, high)) {
      const { w, h } = this.sizeAt(k, factor);
      if (Math.min(w, h) < Math.min(COARSE_MIN_SIDE, Math.floor(smallest)) || w > cw || h > ch) continue;
      const inner = new MatScope(this.cv);
      try {
        const templ = inner.mat();
        this.cv.resize(this.templateMat, templ, new this.cv.Size(w, h), 0, 0, w < this.template.width ? this.cv.INTER_AREA : this.cv.INTER_LINEAR);
        const result = inner.mat();
        this.cv.matchTemplate(coarseScreen, templ, result, this.cv.TM_CCOEFF_NORMED);
        this.trace.coarseScales++;
        if (factor === 1) this.trace.fullResolutionPixels += cw * ch;
        const minStd = FLAT_STD * 0.5;
        const peaks = findPeaks(result.data32F, result.cols, result.rows, floor, limit, (x, y) => stats.std(x, y, w, h) >= minStd);
        const full = this.sizeAt(k);
        for (const p of peaks) {
          const cx = (p.x + w / 2) / factor;
          const cy = (p.y + h / 2) / factor;
          all.push({ k, cx, cy, x: cx - full.w / 2, y: cy - full.h / 2, w: full.w, h: full.h, score: p.score });
        }
      } finally {
        inner.close();
      }
    }
    return suppressOverlaps(all, MAX_OVERLAP, limit);
  }

  private fineTemplate(k: number): { mat: CvMat; gray: GrayImage } {
    let entry = this.fineTemplates.get(k);
    if (!entry) {
      const { w, h } = this.sizeAt(k);
      const mat = k === 0 ? this.templateMat : this.resized(this.templateMat, w, h);
      entry = { mat, gray: { width: w, height: h, data: mat.data.slice() } };
      this.fineTemplates.set(k, entry);
    }
    return entry;
  }

  /**
   * The best placement near the candidate: at its coarse step k0, then k0±2 fine steps (and on
   * by 2 while the score rises), then ±1 around the best, and on in halves while a scale error of one such step would still move
   * the template's edge by more than ¾ px (a 1000 px button needs steps of 1/32).
   */
  private refine(candidate: Candidate): Candidate | null {
    const margin = Math.ceil(2 / this.trace.coarseFactor) + 2;
    let best = this.searchAt(candidate.k, candidate.cx, candidate.cy, margin);
    // The coarse pass may peak a whole coarse step (or more) off: on a shrunk screen a 15 px
    // template and a 17 px one score alike, and a neighbouring step's peak can win the overlap
    // merge. So the first ring walks on, half a stride at a time, while the score still rises
    // (a 2× template refined from its 0.57× peak down to 0.5×, the range's end).
    const ring = COARSE_STRIDE / 2;
    for (const direction of [-1, 1]) {
      for (let k = candidate.k + direction * ring; ; k += direction * ring) {
        const from = best ?? candidate;
        const found = this.searchAt(k, from.cx, from.cy, margin);
        if (!found || (best && found.score <= best.score)) break;
        best = found;
      }
      if (best && best.k !== candidate.k) break;
    }
    for (let d = COARSE_STRIDE / 4; ; d /= 2) {
      // After the coarse step's neighbours, a candidate far below the threshold is dropped:
      // finer steps move a score by a few hundredths, not by this much.
      if (d < COARSE_STRIDE / 2 && (!best || best.score < this.options.threshold - FINE_SLACK)) return null;
      const around = best ?? candidate;
      for (const k of [around.k - d, around.k + d]) {
        const found = this.searchAt(k, around.cx, around.cy, margin);
        if (found && (!best || found.score > best.score)) best = found;
      }
      const side = Math.max((best ?? candidate).w, (best ?? candidate).h);
      if (d * FINE_STEP * side <= 1.5 || d < 1 / 64) break;
    }
    return best;
  }

  private searchAt(k: number, cx: number, cy: number, margin: number): Candidate | null {
    if (k < this.range.low || k > this.range.high) return null;
    const { w, h } = this.sizeAt(k);
    if (Math.min(w, h) < MIN_SIDE || w > this.screen.width || h > this.screen.height) return null;
    const x0 = Math.max(0, Math.round(cx - w / 2) - margin);
    const y0 = Math.max(0, Math.round(cy - h / 2) - margin);
    const x1 = Math.min(this.screen.width, Math.round(cx - w / 2) + w + margin);
    const y1 = Math.min(this.screen.height, Math.round(cy - h / 2) + h + margin);
    if (x1 - x0 < w || y1 - y0 < h) return null;
    const templ = this.fineTemplate(k).mat;
    const inner = new MatScope(this.cv);
    try {
      const window = inner.roi(this.screenMat, new this.cv.Rect(x0, y0, x1 - x0, y1 - y0));
      const result = inner.mat();
      this.cv.matchTemplate(window, templ, result, this.cv.TM_CCOEFF_NORMED);
      this.trace.fineSearches++;
      this.trace.fullResolutionPixels += (x1 - x0) * (y1 - y0);
      // The best placement whose window is not flat (there OpenCV's score is rounding noise).
      const stats = new WindowStats(this.screen, { x: x0, y: y0, w: x1 - x0, h: y1 - y0 });
      const map = result.data32F;
      let at = -1;
      for (let i = 0; i < map.length; i++) {
        if (at >= 0 && !(map[i] > map[at])) continue;
        if (stats.std(i % result.cols, Math.floor(i / result.cols), w, h) >= FLAT_STD) at = i;
      }
      if (at < 0) return null;
      const x = x0 + (at % result.cols);
      const y = y0 + Math.floor(at / result.cols);
      return { k, x, y, w, h, cx: x + w / 2, cy: y + h / 2, score: map[at] };
    } finally {
      inner.close();
    }
  }
}

/** The relative size change of one fine scale step. */
const FINE_STEP = scaleOf(1) - 1;

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;
