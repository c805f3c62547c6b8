// Frames of a trace (decisions.md §17): JPEG, longest edge 720 px, quality 70, named by their
// decoded pixels so a picture equal to one already kept is not stored again. The FrameBook
// decides, in capture order, what each picture becomes: a new frame, an earlier one's id, or
// nothing once RUN_TRACE_MAX_FRAMES frames are kept.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { ScreenshotOptions } from '../../hosts/types.js';
import type { TraceFrame } from './step.js';

export const TRACE_FRAME: ScreenshotOptions = { format: 'jpeg', maxEdge: 720, quality: 70 };

/**
 * Frame ids of files already decoded, by the file itself: a renderer that keeps its encoded
 * pictures (`sim`'s) hands out the same buffer for the same screen, run after run, and such a
 * file is neither hashed nor decoded again. Buffers are never written after encoding.
 */
const idsOfFiles = new WeakMap<Buffer, string>();

/** The frame of a file decoded before (this very buffer), if any. */
export function knownFrameOf(jpeg: Buffer): TraceFrame | undefined {
  const id = idsOfFiles.get(jpeg);
  return id === undefined ? undefined : { id, jpeg };
}

/** The frame a screenshot becomes; its id hashes the decoded pixels, not the file. */
export async function frameOf(jpeg: Buffer): Promise<TraceFrame> {
  const known = knownFrameOf(jpeg);
  if (known) return known;
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const digest = createHash('sha256').update(`${info.width}x${info.height}x${info.channels}:`).update(data).digest('hex');
  const id = `fr_${digest.slice(0, 24)}`;
  idsOfFiles.set(jpeg, id);
  return { id, jpeg };
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
