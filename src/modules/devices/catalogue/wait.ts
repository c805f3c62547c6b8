// The one waiting loop of every locator action (decisions.md §16). It polls every POLL_MS
// until the selector names exactly one visible element, no progress indicator covers the
// screen and two reads in a row show the same tree; then the caller acts. Interrupts
// registered by a run are handled first on every look (at most MAX_INTERRUPTS per wait).
// More than one match without `index` fails at once: waiting would not make it one.
import type { ElementWithCenter } from '../actions/find-element.js';
import type { ActionEnv, Interrupt } from './env.js';
import { AmbiguousSelectorError, ElementNotFoundError, ElementStillVisibleError } from './errors.js';
import { handleInterrupt } from './interrupts.js';
import { type Look, matchesOn, pickIndex, readScreen } from './look.js';
import { fingerprint, isLoading } from './matching.js';
import { ambiguousMessage, notFoundMessage, stillVisibleMessage } from './messages.js';
import type { Selector } from './selector.js';

export const POLL_MS = 150;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_TIMEOUT_MS = 600_000;
export const MAX_INTERRUPTS = 5;

export interface WaitOptions {
  timeoutMs?: number;
  /** Wait for the selector to match nothing instead. */
  gone?: boolean;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** The run's first interrupt whose selector shows now, with the element it names. */
async function dueInterrupt(env: ActionEnv, look: Look): Promise<{ interrupt: Interrupt; element: ElementWithCenter } | null> {
  for (const interrupt of env.interrupts ?? []) {
    const [element] = pickIndex(interrupt.when, await matchesOn(env, interrupt.when, look));
    if (element) return { interrupt, element };
  }
  return null;
}

/**
 * Waits for the one element the selector names (or, with `gone`, for none) and answers it.
 * Throws ElementNotFoundError (or ElementStillVisibleError) after the time-out, with the
 * message a person needs; AmbiguousSelectorError at once.
 */
export async function waitFor(env: ActionEnv, selector: Selector, options?: WaitOptions): Promise<ElementWithCenter | null>;
/** With no selector: waits until the screen has loaded and settled (scroll_to between swipes). */
export async function waitFor(env: ActionEnv, selector: null, options?: WaitOptions): Promise<null>;
export async function waitFor(env: ActionEnv, selector: Selector | null, options: WaitOptions = {}): Promise<ElementWithCenter | null> {
  const timeoutMs = Math.min(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const started = performance.now();
  const deadline = started + timeoutMs;
  let previous: string | null = null;
  let handled = 0;
  let rereadAtOnce = false;
  let look: Look = await readScreen(env);
  let note: string | undefined;
  const size = look.size;
  for (let first = true; ; first = false) {
    if (!first) look = await readScreen(env, size);
    if (handled < MAX_INTERRUPTS) {
      const due = await dueInterrupt(env, look);
      if (due) {
        handled += 1;
        await handleInterrupt(env, due.interrupt, due.element);
        previous = null;
        continue;
      }
    }
    const print = fingerprint(look.tree);
    const settled = previous === print;
    previous = print;
    let ready = false;
    let found: ElementWithCenter | null = null;
    if (isLoading(look.tree)) {
      note = 'A progress indicator still covered the screen.';
    } else if (selector === null) {
      ready = true;
      note = settled ? undefined : 'The screen kept changing.';
      if (settled) return null;
    } else {
      const matches = await matchesOn(env, selector, look);
      if (!options.gone && matches.length > 1 && selector.index === undefined) throw new AmbiguousSelectorError(ambiguousMessage(selector, matches));
      const picked = pickIndex(selector, matches);
      ready = options.gone ? picked.length === 0 : picked.length === 1;
      found = picked[0] ?? null;
      note = ready && !settled ? 'The screen kept changing.' : selector.index !== undefined && matches.length > 0 && picked.length === 0 ? `${matches.length} matched, so index ${selector.index} names none.` : undefined;
      if (ready && settled) return options.gone ? null : found;
    }
    // A match on a first read is checked once more at once: the same tree twice is "settled".
    if (ready && !rereadAtOnce) {
      rereadAtOnce = true;
      continue;
    }
    rereadAtOnce = false;
    const now = performance.now();
    if (now >= deadline || env.signal?.aborted) {
      if (selector === null) return null;
      const app = await env.driver.currentApp().catch(() => null);
      if (options.gone) throw new ElementStillVisibleError(stillVisibleMessage(selector, timeoutMs, app));
      throw new ElementNotFoundError(notFoundMessage({ selector, waitedMs: timeoutMs, app, tree: look.tree, note }));
    }
    await sleep(Math.min(POLL_MS, deadline - now), env.signal);
  }
}
