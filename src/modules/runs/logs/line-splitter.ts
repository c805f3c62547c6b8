// Cuts a process's output stream into log lines (decisions.md §10): split on `\n` at the byte
// level (a newline byte never occurs inside a UTF-8 character, so a chunk boundary or invalid
// bytes cannot shift a line), decoded with invalid sequences replaced by U+FFFD. A line is at
// most MAX_LOG_LINE_BYTES of UTF-8 including its prefix; a longer one keeps its start and ends
// with a marker giving its full length, and memory stays bounded however long it runs on.

/** The longest stored line, prefix and marker included (the run-log store's own cap). */
export const MAX_LOG_LINE_BYTES = 8192;

export interface LineSplitterOptions {
  /** Put before every line, e.g. `[stderr] `. */
  prefix?: string;
  maxBytes?: number;
}

export const cutMarker = (totalBytes: number) => ` … [line cut: ${totalBytes} bytes in all]`;

export class LineSplitter {
  private readonly prefix: string;
  private readonly budget: number;
  private parts: Buffer[] = [];
  private kept = 0;
  /** Bytes of the current line beyond the budget: counted, not kept. */
  private dropped = 0;
  private started = false;

  constructor(
    private readonly emit: (line: string) => void,
    options: LineSplitterOptions = {},
  ) {
    this.prefix = options.prefix ?? '';
    this.budget = (options.maxBytes ?? MAX_LOG_LINE_BYTES) - Buffer.byteLength(this.prefix);
  }

  write(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.finishLine();
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline is still a line. */
  end(): void {
    if (this.started) this.finishLine();
  }

  private take(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.started = true;
    const room = this.budget - this.kept;
    if (room > 0) {
      const part = bytes.length <= room ? bytes : bytes.subarray(0, room);
      // Copied: the stream may reuse its chunk buffers.
      this.parts.push(Buffer.from(part));
      this.kept += part.length;
    }
    this.dropped += Math.max(0, bytes.length - Math.max(0, room));
  }

  private finishLine(): void {
    const total = this.kept + this.dropped;
    let text = Buffer.concat(this.parts, this.kept).toString('utf8');
    // Invalid bytes decode to U+FFFD (three bytes each), so the decoded line is measured again.
    if (this.dropped > 0 || Buffer.byteLength(text) > this.budget) {
      const marker = cutMarker(total);
      text = utf8Prefix(text, this.budget - Buffer.byteLength(marker)) + marker;
    }
    this.parts = [];
    this.kept = 0;
    this.dropped = 0;
    this.started = false;
    this.emit(this.prefix + text);
  }
}

/** The longest start of `text` that is at most `maxBytes` of UTF-8, never half a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8');
}
