// Frames of a trace (decisions.md §17): JPEG, longest edge 720 px, quality 70, named by their
// decoded pixels so a picture equal to one already kept is not stored again. The FrameBook
// decides, in capture order, what each picture becomes: a new frame, an earlier one's id, or
// nothing once RUN_TRACE_MAX_FRAMES frames are kept.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { ScreenshotOptions } from '../../hosts/types.js';
import type { TraceFrame } from './step.js';

export const TRACE_FRAME: ScreenshotOptions = { format: 'jpeg', maxEdge: 720, quality: 70 };

/** The frame a screenshot becomes; its id hashes the decoded pixels, not the file. */
export async function frameOf(jpeg: Buffer): Promise<TraceFrame> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const digest = createHash('sha256').update(`${info.width}x${info.height}x${info.channels}:`).update(data).digest('hex');
  return { id: `fr_${digest.slice(0, 24)}`, jpeg };
}

export class FrameBook {
  private readonly kept: Set<string>;
  private last: string | null = null;
  /** Admitted and not yet handed to a writer. */
  private fresh: TraceFrame[] = [];
  capped: boolean;

  constructor(
    private readonly max: number,
    kept: Iterable<string> = [],
    capped = false,
  ) {
    this.kept = new Set(kept);
    this.capped = capped;
  }

  /** The id a step names for this picture; undefined once the cap is reached. */
  admit(frame: TraceFrame): string | undefined {
    if (frame.id === this.last || this.kept.has(frame.id)) {
      this.last = frame.id;
      return frame.id;
    }
    if (this.kept.size >= this.max) {
      this.capped = true;
      return undefined;
    }
    this.kept.add(frame.id);
    this.last = frame.id;
    this.fresh.push(frame);
    return frame.id;
  }

  /** The frames admitted since the last call, for the next batch. */
  take(): TraceFrame[] {
    const out = this.fresh;
    this.fresh = [];
    return out;
  }
}
