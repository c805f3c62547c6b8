// What each picture a recorder takes becomes (a new frame, an earlier one's id, or nothing
// past the cap), decided in the order the pictures were taken, so that "equal to the previous
// one" and RUN_TRACE_MAX_FRAMES hold (decisions.md §17). A screen an input found on `sim` is
// only noted on the action's path: it joins the order when a batch is assembled, or when a
// picture taken later must be decided first, so the action makes no promise chain for it.
// (Measured on 2026-11-29, this did not shorten a traced cloud run measurably: see
// PERFORMANCE.md, "Run traces".)
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

/** A screen noted on the action's path (`sim`), decided later in its place in the order. */
export class LaterFrame {
  /** Its frame id once it has joined the order. */
  decided: Promise<string | undefined> | undefined;

  constructor(
    readonly screen: UndrawnScreen,
    /** The frame it is drawn as, when its key named one drawn or being drawn. */
    readonly frame: Promise<TraceFrame> | undefined,
  ) {}
}

/** A taken picture: its frame id once decided (undefined: none kept), or a screen noted for later. */
export type FrameRef = Promise<string | undefined> | LaterFrame;

export class FrameAdmission {
  private chain: Promise<unknown> = Promise.resolve();
  /** Noted screens not yet in the chain, in the order they were taken. */
  private later: LaterFrame[] = [];
  /** Frame ids by the SHA-1 of their file, so a picture seen before is not decoded again. */
  private readonly decoded = new Map<string, string>();

  constructor(
    private readonly book: FrameBook,
    /** Frames by the key of the undrawn screen they are drawn from, shared by a process's recorders. */
    private readonly drawn: Map<string, Promise<TraceFrame>>,
    private readonly problem: (message: string) => void,
  ) {}

  /**
   * A screen (`sim`): noted now and decided in its turn. A screen never seen is drawn at once,
   * off the action's path, so its drawing overlaps the run instead of delaying the batch.
   */
  undrawn(screen: UndrawnScreen): FrameRef {
    const later = new LaterFrame(screen, screen.key === null ? undefined : this.drawn.get(screen.key) ?? this.draw(screen, screen.key));
    this.later.push(later);
    return later;
  }

  /** A screenshot's file: decided after every picture taken before it. */
  file(jpeg: Buffer): FrameRef {
    this.decideNoted();
    const frame = this.frameOfFile(jpeg);
    return this.inOrder(async () => this.book.admit(await frame));
  }

  /** The frame id a picture became (awaiting its turn); undefined when none was kept. */
  idOf(ref: FrameRef | string | undefined): Promise<string | undefined> | string | undefined {
    if (!(ref instanceof LaterFrame)) return ref;
    if (!ref.decided) this.decideNoted();
    return ref.decided;
  }

  /** Puts the noted screens into the order, oldest first. */
  private decideNoted(): void {
    const noted = this.later;
    if (noted.length === 0) return;
    this.later = [];
    for (const later of noted) {
      // A screen seen before is the frame it became then, with nothing drawn, hashed or decoded.
      const frame = later.frame ?? this.draw(later.screen, null);
      later.decided = this.inOrder(async () => this.book.admit(await frame));
    }
  }

  /** Draws a screen; one with a key is remembered by it, so that no recorder of the process draws it again. */
  private draw(screen: UndrawnScreen, key: string | null): Promise<TraceFrame> {
    const frame = screen.draw(TRACE_FRAME).then((shot) => this.frameOfFile(shot.data));
    if (key !== null) {
      remember(this.drawn, key, frame);
      frame.catch(() => this.drawn.get(key) === frame && this.drawn.delete(key));
    }
    // Failures are said when the frame is decided; until then the drawing is not left unhandled.
    frame.catch(() => undefined);
    return frame;
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
    const ref = this.chain.then(next);
    this.chain = ref.catch(() => undefined);
    return ref.catch((error: unknown) => (this.problem(`a frame could not be read: ${messageOf(error)}`), undefined));
  }
}
