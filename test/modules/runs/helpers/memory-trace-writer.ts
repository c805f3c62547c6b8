// A trace writer that keeps what it is given in memory, and fails its next writes on demand.
import type { TraceBatch, TraceWriter } from '../../../../src/modules/devices/index.js';

export class MemoryWriter implements TraceWriter {
  batches: TraceBatch[] = [];
  notes: string[] = [];
  failNext = 0;
  async write(batch: TraceBatch) {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('disk full');
    }
    this.batches.push(batch);
  }
  async note(message: string) {
    this.notes.push(message);
  }
  get steps() {
    return this.batches.flatMap((b) => b.steps);
  }
  get frames() {
    return this.batches.flatMap((b) => b.frames);
  }
}

