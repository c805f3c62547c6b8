// A recorded step and a selector in words for the step list ("Tap text “Checkout”",
// "Press BACK", "Wait for resource id “title”, match 2"), so a person reads what replay will
// look for without reading JSON. No imports (test/console/recorder-words.test.ts loads it
// under Node): the shapes are the parts of recorder-types.ts it reads.

/** A §16 selector, or a coordinates candidate's `{x, y}`. */
type Selector = Readonly<Record<string, unknown>>;
type At = { x: number; y: number };

/** The parts of a recorded step (recorder-types.ts) its words come from. */
export interface StepShape {
  seq: number;
  action: string;
  selector: Selector | null;
  x?: number;
  y?: number;
  ms?: number;
  from?: At;
  to?: At;
  text?: string;
  key?: string;
}

const quote = (value: unknown) => `“${String(value)}”`;

/** Words for the selector keys the recorder uses; any other key is shown as key=value. */
const KEY_WORDS: Record<string, (value: unknown) => string> = {
  resource_id: (v) => `resource id ${quote(v)}`,
  text: (v) => `text ${quote(v)}`,
  text_contains: (v) => `text containing ${quote(v)}`,
  text_matches: (v) => `text matching ${quote(v)}`,
  desc: (v) => `description ${quote(v)}`,
  desc_contains: (v) => `description containing ${quote(v)}`,
  class_name: (v) => `class ${String(v)}`,
  image_id: (v) => `picture ${String(v)}`,
  ocr_text: (v) => `text read from the screen ${quote(v)}`,
  index: (v) => `match ${Number(v) + 1}`,
};
/** Conditions first, the index last: "resource id “row”, match 2". */
const ORDER = ['resource_id', 'text', 'text_contains', 'text_matches', 'desc', 'desc_contains', 'class_name', 'image_id', 'ocr_text'];

export function selectorWords(given: Selector | null | undefined): string {
  const selector: Selector = given ?? {};
  const keys = Object.keys(selector);
  if (keys.length === 0) return 'the point touched';
  if (keys.length === 2 && typeof selector.x === 'number' && typeof selector.y === 'number') return `the point ${selector.x}, ${selector.y}`;
  keys.sort((a, b) => (a === 'index' ? 1 : b === 'index' ? -1 : (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99)));
  return keys.map((key) => (KEY_WORDS[key] ? KEY_WORDS[key](selector[key]) : `${key}=${String(selector[key])}`)).join(', ');
}

/** The step's target: its selector, or the point when it has none. */
function target(step: StepShape): string {
  if (step.selector) return selectorWords(step.selector);
  return step.x !== undefined && step.y !== undefined ? `the point ${step.x}, ${step.y}` : 'the point touched';
}

export function stepWords(step: StepShape): string {
  switch (step.action) {
    case 'tap':
      return `Tap ${target(step)}`;
    case 'long_press':
      return `Long-press ${target(step)}${step.ms ? ` for ${step.ms} ms` : ''}`;
    case 'swipe':
      return step.from && step.to ? `Swipe from ${step.from.x}, ${step.from.y} to ${step.to.x}, ${step.to.y}${step.ms ? ` in ${step.ms} ms` : ''}` : 'Swipe';
    case 'type':
      return `Type ${quote(step.text ?? '')}${step.selector ? ` into ${selectorWords(step.selector)}` : ''}`;
    case 'key':
      return `Press ${step.key ?? 'a key'}`;
    case 'wait_for':
      return `Wait for ${target(step)}`;
    default:
      return String(step.action);
  }
}

/** "1 match now", "no match now", "3 matches now". */
export function matchWords(matches: number): string {
  if (matches === 0) return 'no match now';
  return `${matches} ${matches === 1 ? 'match' : 'matches'} now`;
}
