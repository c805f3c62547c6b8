// The device-action catalogue (decisions.md §16): every device action defined once, with its
// argument and result schemas and its rule. The tool server, the authoring agent, the run's
// device RPC and block steps all run these entries; they add only their own framing.
import type { CatalogueEntry } from './entry.js';
import { APP_ENTRIES } from './app-entries.js';
import { LOOK_ENTRIES } from './look-entries.js';
import { TOUCH_ENTRIES } from './touch-entries.js';
import { WAIT_ENTRIES } from './wait-entries.js';

export const DEVICE_CATALOGUE: readonly CatalogueEntry[] = [...LOOK_ENTRIES, ...TOUCH_ENTRIES, ...WAIT_ENTRIES, ...APP_ENTRIES];

const byName = new Map(DEVICE_CATALOGUE.map((entry) => [entry.name, entry]));

export const catalogueEntry = (name: string): CatalogueEntry | undefined => byName.get(name);

/** The entry by name; a name the catalogue lacks is a bug of the caller. */
export function entryNamed(name: string): CatalogueEntry {
  const entry = byName.get(name);
  if (!entry) throw new Error(`no device action ${name} in the catalogue`);
  return entry;
}

/** The Python SDK's and the device RPC's name: the tool name without `device_`. */
export const sdkName = (name: string) => name.replace(/^device_/, '');

export type { ActionAnswer, CatalogueEntry } from './entry.js';
export type { ActionEnv, DeviceVision, ImageMatch, Interrupt, InterruptAction } from './env.js';
export { IMAGE_THRESHOLD_DEFAULT } from './look.js';
export { AmbiguousSelectorError, ElementNotFoundError, ElementStillVisibleError } from './errors.js';
export { describeInterrupt } from './interrupts.js';
export { DEFAULT_MAX_SWIPES, SCROLL_DIRECTIONS, type ScrollDirection } from './scroll.js';
export { describeSelector, parseSelector, Selector, SELECTOR_KEYS } from './selector.js';
export { elementMatches, isVisible } from './matching.js';
export { DEFAULT_TIMEOUT_MS, MAX_INTERRUPTS, MAX_TIMEOUT_MS, waitFor } from './wait.js';
export { DEFAULT_LONG_PRESS_MS } from './touch-entries.js';
export { TOOL_SCREENSHOT } from './look-entries.js';
export { InterruptSchema, Interrupts, MAX_INTERRUPT_RULES } from './interrupt-schema.js';
export type { DrawnFrames } from './trace/frame-admission.js';
export { type ActionTracer, TraceRecorder, tracedStep, type RecorderOptions } from './trace/recorder.js';
export type { StepCall, TraceBatch, TraceElement, TraceFrame, TraceStep, TraceWriter } from './trace/step.js';
export { maskArgs, redactText, SECRET_TEXT, TypedSecrets } from './trace/mask.js';
export { frameOf as frameOfScreen, TRACE_FRAME } from './trace/frames.js';
