// Text on a screen as lines with bounds, the shape `device_read_text` answers (decisions.md
// §12), whether the lines come from the UI tree or from OCR. This file holds the shared shape
// and the UI-tree reader: a pure function of the element list both device hosts answer, so it
// costs nothing and reads exactly what the app says, where OCR guesses from pixels.

/** Pixel rectangle, Android style: left/top inclusive, right/bottom exclusive. */
export interface LineBounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface TextLine {
  text: string;
  bounds: LineBounds;
  center: { x: number; y: number };
  /** `tree`: an element's text; `ocr`: read from the pixels (decisions.md §16). */
  source: 'tree' | 'ocr';
  /** How sure the reader is of the line, 0..1: always 1 for the tree, the recogniser's for OCR. */
  confidence: number;
  /** UI tree only: the element holding the text (tap it by id). */
  element_id?: string;
}

/** What the reader needs of a UI element; the hosts' `UiElement` has it. */
export interface TextElement {
  element_id: string;
  class: string;
  text: string;
  bounds: LineBounds;
}

export interface TreeTextOptions {
  /** Only lines whose centre lies inside this rectangle. */
  region?: LineBounds;
}

const TOGGLE = /(Switch|CheckBox|ToggleButton|RadioButton)$/;

export function centerOf(b: LineBounds): { x: number; y: number } {
  return { x: Math.round((b.left + b.right) / 2), y: Math.round((b.top + b.bottom) / 2) };
}

export function insideRegion(b: LineBounds, region: LineBounds | undefined): boolean {
  if (!region) return true;
  const c = centerOf(b);
  return c.x >= region.left && c.x < region.right && c.y >= region.top && c.y < region.bottom;
}

/**
 * Reading order: top to bottom, and left to right within a row (lines whose vertical extents
 * overlap by at least half the shorter one share a row, so a label and its value read together).
 */
export function inReadingOrder<T extends { bounds: LineBounds }>(lines: T[]): T[] {
  const byTop = [...lines].sort((a, b) => a.bounds.top - b.bounds.top || a.bounds.left - b.bounds.left);
  const rows: T[][] = [];
  for (const line of byTop) {
    const row = rows[rows.length - 1];
    const anchor = row?.[0];
    if (anchor && sameRow(anchor.bounds, line.bounds)) row.push(line);
    else rows.push([line]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.bounds.left - b.bounds.left));
}

function sameRow(a: LineBounds, b: LineBounds): boolean {
  const shared = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return shared >= Math.min(a.bottom - a.top, b.bottom - b.top) / 2;
}

/**
 * The visible text of a UI tree as lines: each element with text is a line (text with line
 * breaks gives one line per break, all with the element's bounds). Left out: elements without
 * text or with empty bounds, a switch's ON/OFF state (state, not a label), and
 * `content_desc` (an accessibility description, not shown). Whitespace is collapsed; an
 * element repeated with the same text and bounds (nested views in adb dumps) counts once.
 */
export function textLinesFromTree(elements: readonly TextElement[], options: TreeTextOptions = {}): TextLine[] {
  const seen = new Set<string>();
  const lines: TextLine[] = [];
  for (const e of elements) {
    const b = e.bounds;
    if (b.right <= b.left || b.bottom <= b.top) continue;
    if (TOGGLE.test(e.class) && /^(ON|OFF)$/i.test(e.text.trim())) continue;
    if (!insideRegion(b, options.region)) continue;
    for (const raw of e.text.split(/\r?\n/)) {
      const text = raw.replace(/\s+/g, ' ').trim();
      if (text === '') continue;
      const key = `${text}|${b.left},${b.top},${b.right},${b.bottom}`;
      if (seen.has(key)) continue;
      seen.add(key);
      lines.push({ text, bounds: { ...b }, center: centerOf(b), source: 'tree', confidence: 1, element_id: e.element_id });
    }
  }
  return inReadingOrder(lines);
}
