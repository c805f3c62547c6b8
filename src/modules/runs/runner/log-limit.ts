// RUN_MAX_LOG_MB (decisions.md §10): how much log text one run stores. Past the limit later
// lines are dropped and counted; the run goes on, and when it ends one line says that the
// limit was reached and how many lines were dropped. A line counts its UTF-8 bytes plus one.
export class LogLimit {
  private used = 0;
  private droppedLines = 0;

  constructor(private readonly maxMb: number) {}

  /** True when the line may be stored; false (and counted) past the limit. */
  admit(line: string): boolean {
    if (this.droppedLines === 0) {
      const size = Buffer.byteLength(line, 'utf8') + 1;
      if (this.used + size <= this.maxMb * 1024 * 1024) {
        this.used += size;
        return true;
      }
    }
    this.droppedLines += 1;
    return false;
  }

  get dropped(): number {
    return this.droppedLines;
  }

  /** The closing line, when lines were dropped. */
  summary(): string | null {
    if (this.droppedLines === 0) return null;
    return `[svc] log limit reached: this run's log is capped at ${this.maxMb} MB (RUN_MAX_LOG_MB); ${this.droppedLines} later lines were dropped`;
  }
}
