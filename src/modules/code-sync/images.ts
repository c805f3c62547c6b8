// Image references (decisions.md §5): every `img_` + 16 lowercase hex found inside a string
// literal of a `.py` file, once each, in order of first appearance. The scanner follows
// Python's string syntax (prefixes, raw strings, escapes, triple quotes, comments) over
// text pushed in chunks, so a large file is read in constant memory and never held whole.
const IMAGE_ID = /(?<![A-Za-z0-9_])img_[0-9a-f]{16}(?![A-Za-z0-9_])/g;
/** An id and the character after it: a match ending closer than this to the buffer's end may still grow. */
const ID_SPAN = 21;
/** A literal longer than this is scanned and trimmed as it grows. */
const LITERAL_WINDOW = 64 * 1024;
const CODE_STOP = /[#'"\n]/g;
const STRING_STOP = /[\\\n'"]/g;

export interface ImageRef {
  id: string;
  /** 1-based line of the first appearance. */
  line: number;
}

export class ImageIdScanner {
  /** Each id once, in order of first appearance. */
  readonly refs: ImageRef[] = [];
  private readonly seen = new Set<string>();
  private mode: 'code' | 'comment' | 'string' = 'code';
  private line = 1;
  /** Unprocessed text carried into the next push: a quote whose neighbours decide ' from '''. */
  private pending = '';
  /** In code: the identifier characters just before here (at most 3), to spot a raw-string prefix. */
  private word = '';
  private quote = '';
  private raw = false;
  private escaped = false;
  private literal = '';
  private literalLine = 1;
  /** Where in `literal` matches not yet recorded may start. */
  private literalFrom = 0;

  push(text: string): void {
    this.run(this.pending + text, false);
  }

  end(): void {
    this.run(this.pending, true);
    if (this.mode === 'string') this.scanLiteral(true);
    this.mode = 'code';
  }

  private run(text: string, final: boolean): void {
    this.pending = '';
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (this.mode === 'comment') {
        const newline = text.indexOf('\n', i);
        if (newline === -1) return;
        this.mode = 'code';
        this.line += 1;
        i = newline + 1;
      } else if (this.mode === 'code') {
        CODE_STOP.lastIndex = i;
        const stop = CODE_STOP.exec(text)?.index ?? n;
        this.trackWord(text, i, stop);
        if (stop === n) return;
        const c = text[stop];
        if (c === '\n' || c === '#') {
          this.word = '';
          if (c === '\n') this.line += 1;
          else this.mode = 'comment';
          i = stop + 1;
          continue;
        }
        if (stop + 2 >= n && !final) {
          this.pending = text.slice(stop);
          return;
        }
        const triple = text[stop + 1] === c && text[stop + 2] === c;
        this.openLiteral(triple ? c.repeat(3) : c);
        i = stop + (triple ? 3 : 1);
      } else {
        i = this.runString(text, i, final);
        if (i < 0) return;
      }
    }
  }

  /** Reads string text from `i`; answers where to go on, or -1 when the rest waits for more text. */
  private runString(text: string, i: number, final: boolean): number {
    const n = text.length;
    if (this.escaped) {
      this.escaped = false;
      const c = text[i];
      if (c === '\n') {
        this.line += 1;
        this.literal += '\n';
      } else {
        // A raw string keeps the backslash; elsewhere an escape is one character we do not
        // decode, so it stands as a separator (`\nimg_…` starts an id, `r"\nimg_…"` does not).
        this.literal += this.raw ? `\\${c}` : '\0';
      }
      return i + 1;
    }
    STRING_STOP.lastIndex = i;
    const stop = STRING_STOP.exec(text)?.index ?? n;
    this.literal += text.slice(i, stop);
    if (this.literal.length > LITERAL_WINDOW) this.scanLiteral(false);
    if (stop === n) return n;
    const c = text[stop];
    if (c === '\\') {
      this.escaped = true;
      return stop + 1;
    }
    if (c === '\n') {
      this.line += 1;
      // A one-quote string cannot span lines; Python would stop here, and so do we.
      if (this.quote.length === 1) this.closeLiteral();
      else this.literal += '\n';
      return stop + 1;
    }
    if (c !== this.quote[0]) {
      this.literal += c;
      return stop + 1;
    }
    if (this.quote.length === 1) {
      this.closeLiteral();
      return stop + 1;
    }
    if (stop + 2 >= n && !final) {
      this.pending = text.slice(stop);
      return -1;
    }
    if (text[stop + 1] === c && text[stop + 2] === c) {
      this.closeLiteral();
      return stop + 3;
    }
    this.literal += c;
    return stop + 1;
  }

  private trackWord(text: string, from: number, to: number): void {
    const tail = to - from >= 3 ? text.slice(to - 3, to) : (this.word + text.slice(from, to)).slice(-3);
    this.word = /[A-Za-z0-9_]*$/.exec(tail)?.[0] ?? '';
  }

  private openLiteral(quote: string): void {
    this.raw = /^[rRbBuUfFtT]{1,2}$/.test(this.word) && /[rR]/.test(this.word);
    this.word = '';
    this.quote = quote;
    this.mode = 'string';
    this.escaped = false;
    this.literal = '';
    this.literalLine = this.line;
    this.literalFrom = 0;
  }

  private closeLiteral(): void {
    this.scanLiteral(true);
    this.literal = '';
    this.mode = 'code';
  }

  /** Records the ids in the literal so far; unless final, keeps only the tail a match could still grow from. */
  private scanLiteral(final: boolean): void {
    const text = this.literal;
    const limit = final ? text.length : text.length - ID_SPAN;
    let line = this.literalLine;
    let counted = 0;
    const linesUpTo = (index: number) => {
      for (let at = text.indexOf('\n', counted); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line += 1;
      counted = Math.max(counted, index);
      return line;
    };
    IMAGE_ID.lastIndex = this.literalFrom;
    for (let match = IMAGE_ID.exec(text); match && match.index < limit; match = IMAGE_ID.exec(text)) {
      this.record(match[0], linesUpTo(match.index));
    }
    if (final || limit < 1) return;
    // Keep one character before the cut, so the look-behind still sees what preceded it.
    const cut = limit - 1;
    this.literalLine = linesUpTo(cut);
    this.literal = text.slice(cut);
    this.literalFrom = 1;
  }

  private record(id: string, line: number): void {
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.refs.push({ id, line });
  }
}

/** The image references of a whole source text (what the upload does, chunk by chunk). */
export function imageRefsIn(source: string): ImageRef[] {
  const scanner = new ImageIdScanner();
  scanner.push(source);
  scanner.end();
  return scanner.refs;
}
