// The text a simulated screen draws, read back from the SVG the painters made: the ground
// truth for OCR tests and benchmarks (what the pixels say, after ellipsizing and masking,
// which the UI tree does not always tell). Bounds are estimates from the font size and the
// glyph widths text-layout.ts uses, good to a few pixels.
import { textWidth } from './text-layout.js';

export interface DrawnText {
  text: string;
  /** Estimated box of the glyphs, in screen pixels (1080×2400). */
  bounds: { left: number; top: number; right: number; bottom: number };
  /** Font size in screen pixels. */
  size: number;
  bold: boolean;
  /** A glyph inside an icon (an avatar's initial), not a label. */
  icon: boolean;
}

const TEXT = /<text\b([^>]*)>([^<]*)<\/text>/g;
const GROUP = /<g transform="translate\(([-\d.]+) ([-\d.]+)\) scale\(([-\d.]+)\)">(.*?)<\/g>/g;

const unescapeXml = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '');

function attribute(attributes: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1];
}

function textsOf(svg: string, dx: number, dy: number, scale: number, icon: boolean): DrawnText[] {
  const out: DrawnText[] = [];
  for (const [, attributes, body] of svg.matchAll(TEXT)) {
    const text = unescapeXml(body);
    if (text.trim() === '') continue;
    const size = Number(attribute(attributes, 'font-size')) * scale;
    const x = dx + Number(attribute(attributes, 'x')) * scale;
    const baseline = dy + Number(attribute(attributes, 'y')) * scale;
    const bold = attribute(attributes, 'font-weight') === 'bold';
    const width = textWidth(text, size, bold);
    const left = attribute(attributes, 'text-anchor') === 'middle' ? x - width / 2 : x;
    const box = { left: Math.round(left), top: Math.round(baseline - size * 0.76), right: Math.round(left + width), bottom: Math.round(baseline + size * 0.24) };
    out.push({ text, bounds: box, size, bold, icon });
  }
  return out;
}

/** Every `<text>` of the SVG fragments, in drawing order; glyphs inside an icon's scaled group are placed by its transform. */
export function drawnTexts(fragments: string[]): DrawnText[] {
  return fragments.flatMap((svg) => {
    const grouped = [...svg.matchAll(GROUP)].flatMap(([, x, y, s, body]) => textsOf(body, Number(x), Number(y), Number(s), true));
    return [...textsOf(svg.replace(GROUP, ''), 0, 0, 1, false), ...grouped];
  });
}
