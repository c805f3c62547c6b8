// A recording as a macro (decisions.md §18): a block program of §16 steps, or `src/app.py`
// with `svc_device.locate`, read as a person would write it. Two rewrites make a replay as
// sure as the recording, both in the waiting spirit of §16:
// - a tap on a dialog's button (an AlertDialog's `android:id/button1..3`, such as "Not now" on
//   a rating prompt that comes on every third open) becomes an interrupt, handled whenever the
//   dialog shows during a wait, instead of a tap that fails on the runs where it does not come;
//   as the last step (no wait follows it) it stays a tap;
// - swipes that lead to a step on an element (one selector, no index or image) become
//   `scroll_to` that element, in the direction the content went overall: a swipe does not wait
//   for a screen still loading, scroll_to does.
import type { Selector } from '../devices/index.js';
import type { Point } from './selectors.js';
import type { StoredStep } from './store.js';

/** A block step or an interrupt, as the block program's JSON Schema describes them. */
type Json = Record<string, unknown>;

/** How long a recorded check waits for its element. */
export const CHECK_TIMEOUT_MS = 10_000;
const MIN_SCROLL_SWIPES = 10;

type Plan =
  | { kind: 'step'; step: StoredStep }
  | { kind: 'scroll'; selector: Selector; swipes: number; direction: 'down' | 'up' | 'left' | 'right' };

export interface RecordingPlan {
  interrupts: Selector[];
  items: Plan[];
}

const targetsElement = (step: StoredStep) =>
  (step.action === 'tap' || step.action === 'long_press' || step.action === 'type') && step.selector !== null && step.selector.index === undefined && step.selector.image_id === undefined;

function directionOf(from: Point, to: Point): 'down' | 'up' | 'left' | 'right' {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  if (Math.abs(dy) >= Math.abs(dx)) return dy < 0 ? 'down' : 'up';
  return dx < 0 ? 'right' : 'left';
}

/** What the steps become: the interrupts, then the steps in order with swipe runs folded into scroll_to. */
export function planOf(steps: readonly StoredStep[]): RecordingPlan {
  const interrupts: Selector[] = [];
  const kept: StoredStep[] = [];
  steps.forEach((step, i) => {
    if (step.interrupt && step.selector !== null && i < steps.length - 1) {
      const when = interruptSelector(step);
      if (!interrupts.some((s) => JSON.stringify(s) === JSON.stringify(when))) interrupts.push(when);
    } else kept.push(step);
  });
  const items: Plan[] = [];
  for (let i = 0; i < kept.length; i += 1) {
    const step = kept[i];
    if (step.action !== 'swipe' || !step.from || !step.to) {
      items.push({ kind: 'step', step });
      continue;
    }
    let end = i;
    while (end + 1 < kept.length && kept[end + 1].action === 'swipe' && kept[end + 1].from && kept[end + 1].to) end += 1;
    const next = kept[end + 1];
    if (next && targetsElement(next)) {
      // The way the content went overall: a person who overshoots and drags back still scrolled one way.
      const run = kept.slice(i, end + 1);
      const direction = directionOf({ x: 0, y: 0 }, run.reduce((sum, s) => ({ x: sum.x + s.to!.x - s.from!.x, y: sum.y + s.to!.y - s.from!.y }), { x: 0, y: 0 }));
      const swipes = end - i + 1;
      items.push({ kind: 'scroll', selector: next.selector!, swipes: Math.min(200, Math.max(MIN_SCROLL_SWIPES, swipes * 2 + 5)), direction });
    } else for (let j = i; j <= end; j += 1) items.push({ kind: 'step', step: kept[j] });
    i = end;
  }
  return { interrupts, items };
}

/** An interrupt names its dialog button by its text where it has one ("Not now"): a framework id alone names every dialog's button. */
function interruptSelector(step: StoredStep): Selector {
  const text = step.element?.text.trim();
  return text ? { text } : (step.selector as Selector);
}

function blockStep(step: StoredStep): Json {
  const target = step.selector !== null ? { selector: step.selector } : { x: step.x, y: step.y };
  switch (step.action) {
    case 'tap':
      return { type: 'tap', ...target };
    case 'long_press':
      return { type: 'long_press', ...target, ...(step.ms !== undefined ? { ms: step.ms } : {}) };
    case 'swipe':
      return { type: 'swipe', from: step.from, to: step.to, ms: step.ms ?? 300 };
    case 'type':
      return { type: 'type', text: step.text ?? '', ...(step.selector !== null ? { selector: step.selector, clear: true } : {}) };
    case 'key':
      return { type: 'key', key: step.key };
    case 'wait_for':
      return { type: 'wait_for', selector: step.selector, timeout_ms: CHECK_TIMEOUT_MS };
  }
}

/** The block program (decisions.md §11, §16). */
export function blockProgramOf(steps: readonly StoredStep[]): Json {
  const plan = planOf(steps);
  const body = plan.items.map((item) =>
    item.kind === 'scroll' ? { type: 'scroll_to', selector: item.selector, max_swipes: item.swipes, direction: item.direction } : blockStep(item.step),
  );
  return { version: 1, ...(plan.interrupts.length > 0 ? { interrupts: plan.interrupts.map((when) => ({ when, do: { type: 'tap' } })) } : {}), steps: body };
}

/** A Python literal: JSON's strings, numbers and lists read the same in Python; booleans do not. */
function py(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return JSON.stringify(value);
}

const kwargs = (selector: Selector) =>
  Object.entries(selector)
    .map(([key, value]) => `${key}=${py(value)}`)
    .join(', ');

const locate = (selector: Selector) => `device.locate(${kwargs(selector)})`;

function pythonLine(step: StoredStep): string {
  const fragile = '  # fragile: nothing on the screen named this element';
  switch (step.action) {
    case 'tap':
      return step.selector !== null ? `${locate(step.selector)}.tap()` : `device.tap(${step.x}, ${step.y})${fragile}`;
    case 'long_press':
      return step.selector !== null
        ? `${locate(step.selector)}.long_press(${step.ms !== undefined ? `ms=${step.ms}` : ''})`
        : `device.swipe(${step.x}, ${step.y}, ${step.x}, ${step.y}, ${step.ms ?? 800})  # a long press${fragile.replace('  #', ';')}`;
    case 'swipe':
      return `device.swipe(${step.from!.x}, ${step.from!.y}, ${step.to!.x}, ${step.to!.y}, ${step.ms ?? 300})`;
    case 'type':
      return step.selector !== null ? `${locate(step.selector)}.type(${py(step.text ?? '')})` : `device.type_text(${py(step.text ?? '')})`;
    case 'key':
      return `device.key(${py(step.key)})`;
    case 'wait_for':
      return `${locate(step.selector as Selector)}.wait(timeout_ms=${CHECK_TIMEOUT_MS})`;
  }
}

/** `src/app.py`: the recording as a person would write it with svc_device's locators. */
export function pythonSourceOf(steps: readonly StoredStep[], title: string): string {
  const plan = planOf(steps);
  const lines = [`"""${[...title].map((c) => (c < ' ' || c === '\u007f' ? ' ' : c)).join('').replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"')}`, '', 'Recorded on a cloud device. Each step waits for its element, as svc_device.locate does.', '"""', '', 'import svc_device as device', ''];
  if (plan.interrupts.length > 0) {
    lines.push('# Dialogs that may come at any time: dismissed whenever they show during a wait.');
    for (const when of plan.interrupts) lines.push(`device.when(${kwargs(when)}).tap()`);
    lines.push('');
  }
  for (const item of plan.items) {
    if (item.kind === 'scroll') lines.push(`${locate(item.selector)}.scroll_to(max_swipes=${item.swipes}${item.direction === 'down' ? '' : `, direction=${py(item.direction)}`})`);
    else lines.push(pythonLine(item.step));
  }
  return `${lines.join('\n')}\n`;
}
