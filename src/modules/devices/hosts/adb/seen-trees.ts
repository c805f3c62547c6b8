// Naming the element a tap hits without holding the tap back. A UI dump waits for the screen
// to settle (a second at best; on video, spinners or games it fails after its retries), so a
// tap never waits for one: it is sent first. The element is named from the UI tree this
// process read of the phone last, when that tree is recent and nothing was sent to the phone
// since (tap-by-text, a tool client's tap on an element, a macro's find_text then tap all read
// the tree just before); otherwise the tap answers no element. Any input spends the tree, and
// a dump that was running while input went out is not kept (it may show either screen).
import type { UiElement } from '../types.js';

/** How old a tree may be and still name what a tap hits. */
export const IDENTIFY_MAX_AGE_MS = 3000;

export class SeenTrees {
  private readonly trees = new Map<string, { elements: UiElement[]; at: number }>();
  private readonly generations = new Map<string, number>();

  /** Call before a dump starts; pass the answer to `remember`. */
  begin(slot: string): number {
    return this.generations.get(slot) ?? 0;
  }

  remember(slot: string, generation: number, elements: UiElement[], now: number): void {
    if ((this.generations.get(slot) ?? 0) === generation) this.trees.set(slot, { elements, at: now });
  }

  /** Input is going to the phone: what was seen no longer holds. */
  spend(slot: string): void {
    this.trees.delete(slot);
    this.generations.set(slot, (this.generations.get(slot) ?? 0) + 1);
  }

  /** The tree, when read at most IDENTIFY_MAX_AGE_MS ago with no input since. */
  fresh(slot: string, now: number): UiElement[] | null {
    const seen = this.trees.get(slot);
    return seen && now - seen.at <= IDENTIFY_MAX_AGE_MS ? seen.elements : null;
  }
}
