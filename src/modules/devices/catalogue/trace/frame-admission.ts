// What each picture a recorder takes becomes (a new frame, an earlier one's id, or nothing
// past the cap), decided in the order the pictures were taken, so that "equal to the previous
// one" and RUN_TRACE_MAX_FRAMES hold (decisions.md §17). A screen drawn from a `sim` key or a
// file decoded once is remembered, so a picture seen before costs no drawing or decoding.
import { createHash } from 'node:crypto';
import { messageOf } from '../../../../lib/error-message.js';
import type { UndrawnScreen } from '../../hosts/types.js';
import { type FrameBook, frameOf, knownFrameOf, TRACE_FRAME } from './frames.js';
import type { TraceFrame } from './step.js';

/** Files remembered as decoded, and screens as drawn; past it the memory starts afresh (a run rarely shows this many screens). */
const DECODED_KEPT = 256;

/** Keeps `value` under `key`; past DECODED_KEPT entries the memory starts afresh. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= DECODED_KEPT) map.clear();
  map.set(key, value);
}

/** A taken picture: its frame id once it has been compared and admitted (undefined: none kept). */
export type FrameRef = Promise<string | undefined>;

/** A screen's frame being drawn, and once drawn the frame itself, so a look at it needs no waiting. */
export interface DrawnFrame {
  frame: Promise<TraceFrame>;
  done?: TraceFrame;
}

/** Frames drawn from `sim` screens by the screen's key, shared by the recorders of one owner. */
export type DrawnFrames = Map<string, DrawnFrame>;

export class FrameAdmission {
  private chain: Promise<unknown> = Promise.resolve();
  /** Pictures taken and not yet admitted: while there are none, one whose frame is known is admitted at once. */
  private waiting = 0;
  /** Frame ids by the SHA-1 of their file, so a picture seen before is not decoded again. */
  private readonly decoded = new Map<string, string>();

  constructor(
    private readonly book: FrameBook,
    /** Frames by the key of the undrawn screen they are drawn from, shared by a process's recorders. */
    private readonly drawn: DrawnFrames,
    private readonly problem: (message: string) => void,
  ) {}

  /**
   * A screen an input found (`sim`): drawn, off the input's path, only when its key is new; a
   * screen seen before is the frame it became then, with nothing drawn, hashed or decoded.
   */
  undrawn(screen: UndrawnScreen): FrameRef {
    const { key } = screen;
    const drawn = (key === null ? undefined : this.drawn.get(key)) ?? this.draw(screen, key);
    // The usual case on `sim`: a screen drawn before, and nothing taken before it still
    // waiting, so admitting it now keeps the order. The chain of promises this skips cost
    // about 0.2 ms of a 50-step run's 8 ms (bench/traces.js, interpreter alone: 1.09 → 1.07).
    if (drawn.done && this.waiting === 0) return Promise.resolve(this.book.admit(drawn.done));
    return this.inOrder(async () => this.book.admit(await drawn.frame));
  }

  /** A screenshot's file. */
  file(jpeg: Buffer): FrameRef {
    const frame = this.frameOfFile(jpeg);
    return this.inOrder(async () => this.book.admit(await frame));
  }

  /** Draws a screen; one with a key is remembered by it, so that no recorder of the process draws it again. */
  private draw(screen: UndrawnScreen, key: string | null): DrawnFrame {
    const drawn: DrawnFrame = { frame: screen.draw(TRACE_FRAME).then((shot) => this.frameOfFile(shot.data)) };
    drawn.frame.then(
      (frame) => (drawn.done = frame),
      () => key !== null && this.drawn.get(key) === drawn && this.drawn.delete(key),
    );
    if (key !== null) remember(this.drawn, key, drawn);
    return drawn;
  }

  /** The frame a file is: the same file is the same picture (one encoder, same pixels), so only a new file is decoded. */
  private async frameOfFile(jpeg: Buffer): Promise<TraceFrame> {
    const same = knownFrameOf(jpeg);
    if (same) return same;
    const file = createHash('sha1').update(jpeg).digest('hex');
    const known = this.decoded.get(file);
    if (known) return { id: known, jpeg };
    const frame = await frameOf(jpeg);
    remember(this.decoded, file, frame.id);
    return frame;
  }

  private inOrder(next: () => Promise<string | undefined>): Promise<string | undefined> {
    this.waiting += 1;
    const ref = this.chain.then(next).finally(() => (this.waiting -= 1));
    this.chain = ref.catch(() => undefined);
    return ref.catch((error: unknown) => (this.problem(`a frame could not be read: ${messageOf(error)}`), undefined));
  }
}
