// The catalogue's waiting actions: wait for an element (or for it to go) and scroll until it
// shows. Both are the one loop of wait.ts; scroll_to adds swipes between its looks.
import { Type } from 'typebox';
import { Nullable } from '../../../core/schema.js';
import { StringEnum } from '../../../core/schema.js';
import { defineEntry, Element, strict, TimeoutMs } from './entry.js';
import { DEFAULT_MAX_SWIPES, SCROLL_DIRECTIONS, scrollTo } from './scroll.js';
import { describeSelector, parseSelector, Selector } from './selector.js';
import { waitFor } from './wait.js';

export const WAIT_ENTRIES = [
  defineEntry({
    name: 'device_wait_for',
    title: 'Wait for an element',
    description:
      'Waits up to timeout_ms (default 10000) until the selector names exactly one visible element, the screen has loaded and settled, and answers it; with gone: true waits for it to disappear and answers null. On time-out the error says what the screen showed instead.',
    input: strict({ selector: Selector, timeout_ms: Type.Optional(TimeoutMs), gone: Type.Optional(Type.Boolean({ default: false })) }),
    output: Type.Object({ element: Nullable(Element) }),
    readOnly: true,
    async run(env, input) {
      const selector = parseSelector(input.selector);
      const element = await waitFor(env, selector, { timeoutMs: input.timeout_ms, gone: input.gone === true });
      return { data: { element }, text: input.gone ? `${describeSelector(selector)} is gone` : `found ${describeSelector(selector)}` };
    },
  }),
  defineEntry({
    name: 'device_scroll_to',
    title: 'Scroll an element into view',
    description: `Swipes inside the first scrollable container (else the middle of the screen), up to max_swipes times (default ${DEFAULT_MAX_SWIPES}), until the selector names one visible element, and answers it. direction is where the content moves: down (default) shows what lies below. The error says how many swipes were made and whether the end of the content was reached.`,
    input: strict({
      selector: Selector,
      max_swipes: Type.Optional(Type.Integer({ minimum: 0, maximum: 200, default: DEFAULT_MAX_SWIPES })),
      direction: Type.Optional(StringEnum(SCROLL_DIRECTIONS, { default: 'down' })),
    }),
    output: Type.Object({ element: Element, swipes: Type.Integer({ description: 'How many swipes it took' }) }),
    async run(env, input) {
      const selector = parseSelector(input.selector);
      const { element, swipes } = await scrollTo(env, selector, { maxSwipes: input.max_swipes, direction: input.direction });
      return { data: { element, swipes }, text: `${describeSelector(selector)} in view after ${swipes} swipes` };
    },
  }),
];
