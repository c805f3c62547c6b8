// The catalogue's touching actions: tap, long press, swipe, type and key. A selector target
// goes through the one waiting loop (wait.ts) first; `x, y`, `element_id` and `text` keep the
// rules they had before locators (text: find-element.ts, no wait).
import { Type } from 'typebox';
import { ValidationError } from '../../../core/errors.js';
import { Nullable } from '../../../core/schema.js';
import { type ElementWithCenter, requireElement, requireText, withCenter } from '../actions/find-element.js';
import { MAX_SWIPE_MS } from '../hosts/input-checks.js';
import { Coordinate, defineEntry, Element, Point, strict, TimeoutMs } from './entry.js';
import type { ActionEnv } from './env.js';
import { parseSelector, Selector } from './selector.js';
import { waitFor } from './wait.js';

export const DEFAULT_LONG_PRESS_MS = 800;

const oneTarget = (message: string) => new ValidationError([{ path: 'arguments', message }]);

interface Target {
  x?: number;
  y?: number;
  element_id?: string;
  text?: string;
  selector?: Selector;
  timeout_ms?: number;
}

/** The point a target names, and the element it located (null for bare coordinates). */
async function resolveTarget(env: ActionEnv, t: Target, forms: string): Promise<{ x: number; y: number; element: ElementWithCenter | null }> {
  const given = [t.x !== undefined || t.y !== undefined, t.element_id !== undefined, t.text !== undefined, t.selector !== undefined].filter(Boolean).length;
  if (given !== 1 || (t.x === undefined) !== (t.y === undefined)) throw oneTarget(`must name exactly one target: ${forms}`);
  if (t.x !== undefined && t.y !== undefined) return { x: t.x, y: t.y, element: null };
  let element: ElementWithCenter;
  if (t.selector !== undefined) element = (await waitFor(env, parseSelector(t.selector), { timeoutMs: t.timeout_ms })) as ElementWithCenter;
  else if (t.element_id !== undefined) element = requireElement(await env.driver.uiTree(), t.element_id);
  else element = requireText(await env.driver.uiTree(), t.text ?? '');
  return { ...element.center, element };
}

const TargetFields = {
  x: Type.Optional(Coordinate),
  y: Type.Optional(Coordinate),
  element_id: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'An element_id from device_ui_tree' })),
  text: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: "The element showing this text (exact first, else containing it ignoring case; a clickable one preferred; no wait), as the SDK's tap_text" })),
  selector: Type.Optional(Selector),
  timeout_ms: Type.Optional(TimeoutMs),
};

export const TOUCH_ENTRIES = [
  defineEntry({
    name: 'device_tap',
    title: 'Tap',
    description:
      'Taps a point (x and y, device pixels), an element (element_id from device_ui_tree), the element showing a text, or the one element a selector names, waiting for it up to timeout_ms (default 10000) until it shows, the screen has loaded and settled. A selector matching several elements fails at once (ambiguous_selector): add index or narrow it. Answers the point and the element hit.',
    input: strict(TargetFields),
    output: Type.Object({ x: Type.Integer(), y: Type.Integer(), hit: Nullable(Element) }),
    async run(env, input) {
      const target = await resolveTarget(env, input, 'x and y, element_id, text, or selector');
      const hit = await env.driver.tap(target.x, target.y, { identify: true });
      return { data: { x: target.x, y: target.y, hit: hit ? withCenter(hit) : null }, text: `tapped ${target.x},${target.y}${hit ? `: ${hit.element_id}` : ''}` };
    },
  }),
  defineEntry({
    name: 'device_long_press',
    title: 'Long press',
    description: `Presses and holds for ms (default ${DEFAULT_LONG_PRESS_MS}) at x, y or on the one element a selector names (waiting for it as device_tap does). Answers the point and the element located.`,
    input: strict({
      selector: Type.Optional(Selector),
      x: Type.Optional(Coordinate),
      y: Type.Optional(Coordinate),
      ms: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SWIPE_MS, default: DEFAULT_LONG_PRESS_MS })),
      timeout_ms: Type.Optional(TimeoutMs),
    }),
    output: Type.Object({ x: Type.Integer(), y: Type.Integer(), element: Nullable(Element) }),
    async run(env, input) {
      const target = await resolveTarget(env, input, 'x and y, or selector');
      // A press that does not move is a long press on Android (`input swipe x y x y ms`).
      await env.driver.swipe(target.x, target.y, target.x, target.y, input.ms ?? DEFAULT_LONG_PRESS_MS);
      return { data: { x: target.x, y: target.y, element: target.element }, text: `long-pressed ${target.x},${target.y}` };
    },
  }),
  defineEntry({
    name: 'device_swipe',
    title: 'Swipe',
    description: 'Swipes from one point to another (device pixels) over ms milliseconds (default 300). Swipe up to scroll down; device_scroll_to scrolls until an element shows.',
    input: strict({ from: Point, to: Point, ms: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SWIPE_MS, default: 300 })) }),
    async run(env, input) {
      await env.driver.swipe(input.from.x, input.from.y, input.to.x, input.to.y, input.ms ?? 300);
      return { text: `Swiped ${input.from.x},${input.from.y} → ${input.to.x},${input.to.y}.` };
    },
  }),
  defineEntry({
    name: 'device_type',
    title: 'Type text',
    description:
      'Types into the focused field, or first taps the one element a selector names (waiting for it). clear empties the field first; submit presses ENTER afterwards; secret keeps the text out of every log and answer.',
    input: strict({
      text: Type.String({ maxLength: 10_000 }),
      selector: Type.Optional(Selector),
      clear: Type.Optional(Type.Boolean({ default: false })),
      submit: Type.Optional(Type.Boolean({ default: false })),
      secret: Type.Optional(Type.Boolean({ default: false, description: 'A password or other secret: never written to a log' })),
      timeout_ms: Type.Optional(TimeoutMs),
    }),
    output: Type.Object({ element: Nullable(Element), characters: Type.Integer({ description: 'How many characters were typed' }) }),
    async run(env, input) {
      let field: ElementWithCenter | null = null;
      if (input.selector !== undefined) {
        field = (await waitFor(env, parseSelector(input.selector), { timeoutMs: input.timeout_ms })) as ElementWithCenter;
        await env.driver.tap(field.center.x, field.center.y);
      }
      if (input.clear) {
        const focused = field ?? (await env.driver.uiTree()).map(withCenter).find((e) => e.editable && e.focused) ?? null;
        const length = focused ? [...focused.text].length : 0;
        if (length > 0) await env.driver.pressKey('MOVE_END');
        for (let i = 0; i < length; i += 1) await env.driver.pressKey('DEL');
      }
      if (input.text !== '') await env.driver.typeText(input.text);
      if (input.submit) await env.driver.pressKey('ENTER');
      const characters = [...input.text].length;
      const what = input.secret ? `${characters} secret characters` : `${characters} characters`;
      return { data: { element: field, characters }, text: `Typed ${what}${input.submit ? ' and pressed ENTER' : ''}.` };
    },
  }),
  defineEntry({
    name: 'device_key',
    title: 'Press a key',
    description: 'Presses an Android key: BACK, HOME, ENTER, APP_SWITCH, DEL, … (KEYCODE_ optional).',
    input: strict({ key: Type.String({ minLength: 1, maxLength: 64 }) }),
    async run(env, input) {
      await env.driver.pressKey(input.key);
      return { text: `Pressed ${input.key}.` };
    },
  }),
];
