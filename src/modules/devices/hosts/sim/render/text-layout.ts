// Text measuring for the SVG renderer. librsvg draws the text; we only need to know where
// lines break and when to cut with an ellipsis, so an estimate from typical glyph widths is
// enough. The widths are DejaVu Sans's (the widest of the faces we ask for, and the one
// most Linux machines have), so text never runs past its box with Roboto or Noto either.

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function glyphEm(ch: string): number {
  if (ch === ' ') return 0.32;
  if (ch === '•') return 0.6;
  if ("il.,:;'!|ıj".includes(ch)) return 0.3;
  if ('frt'.includes(ch)) return 0.42;
  if ('mwMW@'.includes(ch)) return 0.92;
  if (/[A-Z]/.test(ch)) return 0.72;
  if (/[0-9]/.test(ch)) return 0.64;
  return 0.61;
}

export function textWidth(text: string, size: number, bold = false): number {
  let em = 0;
  for (const ch of text) em += glyphEm(ch);
  return em * size * (bold ? 1.07 : 1);
}

/** Cuts the text to fit `width`, ending in an ellipsis when something was cut. */
export function ellipsize(text: string, size: number, width: number, bold = false): string {
  if (textWidth(text, size, bold) <= width) return text;
  const chars = Array.from(text);
  while (chars.length > 0 && textWidth(`${chars.join('')}…`, size, bold) > width) chars.pop();
  return `${chars.join('').trimEnd()}…`;
}

/** Word-wraps into at most `maxLines` lines; the last one is ellipsized if text remains. */
export function wrapLines(text: string, size: number, width: number, maxLines: number, bold = false): string[] {
  const lines: string[] = [];
  let current = '';
  const words = text.split(/\s+/).filter((w) => w !== '');
  for (let i = 0; i < words.length; i++) {
    const candidate = current ? `${current} ${words[i]}` : words[i];
    if (textWidth(candidate, size, bold) <= width || current === '') {
      current = candidate;
      continue;
    }
    lines.push(current);
    current = words[i];
    if (lines.length === maxLines - 1) {
      current = [current, ...words.slice(i + 1)].join(' ');
      break;
    }
  }
  if (current) lines.push(current);
  return lines.slice(0, maxLines).map((line, i, all) => (i === all.length - 1 ? ellipsize(line, size, width, bold) : line));
}
