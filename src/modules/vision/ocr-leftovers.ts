// What the first OCR pass left unread. Tesseract's layout analysis, in every page
// segmentation mode that finds scattered labels, drops text that does not look like a line
// of a page: a single letter standing alone (an avatar's initial in a coloured circle) and
// text far larger than body text (a home screen's clock, 150 px tall), while it reads both
// when shown them alone at a body-text size. So after the first pass, the dark marks of the
// prepared picture that no word read covers are gathered into candidate lines (marks side by
// side at the same height), and each is cut out, scaled to a body-text height and read again
// as one line (or one character). The recogniser's confidence then decides, as for the first
// pass: an icon (a magnifier, Wi-Fi arcs) usually reads as nothing or below the floor.
import type { GrayImage } from './gray-image.js';

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Leftover {
  /** In the prepared picture's pixels. */
  box: Box;
  /** How many separate marks it holds: 1 is read as one character. */
  marks: number;
}

/** A mark darker than this is ink. */
const INK = 128;
/** Candidate heights in the prepared picture's pixels: below, dust and rules; above, pictures. */
const MIN_HEIGHT = 10;
const MAX_HEIGHT = 220;
/** A candidate whose box is more than this much ink is a filled shape (a bar, a block), less than the floor is a thin outline. */
const MAX_FILL = 0.85;
const MIN_FILL = 0.08;
/** Marks join one line when they overlap vertically by half the shorter and the gap is under this fraction of the taller. */
const JOIN_GAP = 0.8;
/** Wider than this many times its height, a group is a rule or a picture's edge, not a line. */
const MAX_ASPECT = 14;
/** Ink around a candidate (within its margin) beyond this fraction of its own ink: a piece of a picture, not a label. */
const MAX_SURROUNDING_INK = 0.15;
/** At most this many candidates are read again per picture (each costs a recognition). */
export const MAX_LEFTOVERS = 24;

/** The white margin a candidate is read with, in the prepared picture's pixels, for a candidate `height` tall. */
export const marginFor = (height: number) => Math.round(height * 0.5) + 4;

/** Dark pixels inside the box (clipped to the picture). */
function inkIn(image: GrayImage, box: Box): number {
  let ink = 0;
  for (let y = Math.max(0, box.y0); y <= Math.min(image.height - 1, box.y1); y++) {
    for (let x = Math.max(0, box.x0); x <= Math.min(image.width - 1, box.x1); x++) if (image.data[y * image.width + x] < INK) ink++;
  }
  return ink;
}

interface Mark extends Box {
  ink: number;
}

/** Connected dark marks (8-connected) with their boxes and ink counts. */
function marksOf(image: GrayImage): Mark[] {
  const { width, height, data } = image;
  const label = new Int32Array(width * height).fill(-1);
  const marks: Mark[] = [];
  const stack: number[] = [];
  for (let start = 0; start < data.length; start++) {
    if (data[start] >= INK || label[start] !== -1) continue;
    const id = marks.length;
    const mark: Mark = { x0: width, y0: height, x1: -1, y1: -1, ink: 0 };
    label[start] = id;
    stack.push(start);
    while (stack.length > 0) {
      const at = stack.pop()!;
      const x = at % width;
      const y = (at - x) / width;
      mark.ink++;
      if (x < mark.x0) mark.x0 = x;
      if (x > mark.x1) mark.x1 = x;
      if (y < mark.y0) mark.y0 = y;
      if (y > mark.y1) mark.y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          const next = yy * width + xx;
          if (data[next] < INK && label[next] === -1) {
            label[next] = id;
            stack.push(next);
          }
        }
      }
    }
    marks.push(mark);
  }
  return marks;
}

const overlaps = (a: Box, b: Box) => a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;

/**
 * The groups of dark marks no word of `read` covers (boxes in the prepared picture's pixels),
 * shaped like text, biggest first, at most MAX_LEFTOVERS.
 */
export function leftoverText(prepared: GrayImage, read: Box[]): Leftover[] {
  // A letter's hole or a dot of an "i" is a mark of its own, and joins its letter below.
  const marks = marksOf(prepared).filter((m) => m.y1 - m.y0 + 1 >= 3 && !read.some((r) => overlaps(m, r)));
  marks.sort((a, b) => a.x0 - b.x0);
  const parent = marks.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < marks.length; i++) {
    const a = marks[i];
    const ha = a.y1 - a.y0 + 1;
    for (let j = i + 1; j < marks.length; j++) {
      const b = marks[j];
      const hb = b.y1 - b.y0 + 1;
      const gap = b.x0 - a.x1;
      if (gap > JOIN_GAP * Math.max(ha, hb, MAX_HEIGHT / 4)) break;
      const vertical = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) + 1;
      if (vertical >= 0.5 * Math.min(ha, hb) && gap <= JOIN_GAP * Math.max(ha, hb)) parent[find(j)] = find(i);
    }
  }
  const groups = new Map<number, { box: Box; ink: number; marks: number }>();
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i];
    const root = find(i);
    const g = groups.get(root);
    if (!g) groups.set(root, { box: { x0: m.x0, y0: m.y0, x1: m.x1, y1: m.y1 }, ink: m.ink, marks: 1 });
    else {
      g.box = { x0: Math.min(g.box.x0, m.x0), y0: Math.min(g.box.y0, m.y0), x1: Math.max(g.box.x1, m.x1), y1: Math.max(g.box.y1, m.y1) };
      g.ink += m.ink;
      g.marks++;
    }
  }
  const out: (Leftover & { area: number })[] = [];
  for (const g of groups.values()) {
    const w = g.box.x1 - g.box.x0 + 1;
    const h = g.box.y1 - g.box.y0 + 1;
    const fill = g.ink / (w * h);
    if (h < MIN_HEIGHT || h > MAX_HEIGHT || w > MAX_ASPECT * h || fill > MAX_FILL || fill < MIN_FILL) continue;
    // A lone mark much wider or much narrower than a letter is a rule or a bar.
    if (g.marks === 1 && (w > 1.6 * h || w < 0.12 * h)) continue;
    // A label stands on a plain background (once prepared): ink right around it means a
    // piece of a picture or an icon among others, whose parts read as stray letters.
    const margin = marginFor(h);
    const around = inkIn(prepared, { x0: g.box.x0 - margin, y0: g.box.y0 - margin, x1: g.box.x1 + margin, y1: g.box.y1 + margin }) - inkIn(prepared, g.box);
    if (around > MAX_SURROUNDING_INK * g.ink) continue;
    out.push({ box: g.box, marks: g.marks, area: w * h });
  }
  out.sort((a, b) => b.area - a.area);
  return out.slice(0, MAX_LEFTOVERS).map(({ box, marks: count }) => ({ box, marks: count }));
}
