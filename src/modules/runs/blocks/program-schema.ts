// The block program (decisions.md §11) as a JSON Schema, draft 2020-12: the one source that
// validation (validate.ts), the published document (`GET /schemas/block-program.json`) and
// the step types of the interpreter (program-types.ts names the same kinds) follow.
// `discriminator` (an OpenAPI keyword other validators ignore as an annotation) lets Ajv
// report a step's own mistakes instead of one failure per step kind. Selectors, interrupts
// and the locator steps are those of the device-action catalogue (decisions.md §16).
import { DEFAULT_LONG_PRESS_MS, DEFAULT_MAX_SWIPES, MAX_INTERRUPT_RULES, SCROLL_DIRECTIONS, Selector } from '../../devices/index.js';

export const STEP_TYPES = [
  'tap',
  'long_press',
  'swipe',
  'type',
  'key',
  'wait',
  'wait_for_text',
  'wait_for',
  'wait_gone',
  'scroll_to',
  'open_app',
  'close_app',
  'if_text',
  'if_image',
  'if_exists',
  'repeat',
  'log',
] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const MAX_WAIT_MS = 600_000;
export const MAX_REPEAT = 1000;
export const DEFAULT_SWIPE_MS = 300;
/** The longest swipe both device drivers accept. */
export const MAX_SWIPE_MS = 60_000;
export const DEFAULT_TEXT_TIMEOUT_MS = 10_000;
export const SCHEMA_PATH = '/schemas/block-program.json';

type JsonSchema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });

/** The forms a tap's target takes (exactly one); validate.ts reports a mistake in them as one sentence. */
export const TAP_TARGETS: readonly JsonSchema[] = [{ required: ['x', 'y'] }, { required: ['text'] }, { required: ['element_id'] }, { required: ['image_id'] }, { required: ['selector'] }];
/** A long press takes a point or a selector. */
export const PRESS_TARGETS: readonly JsonSchema[] = [{ required: ['x', 'y'] }, { required: ['selector'] }];

/** The catalogue's selector as plain JSON Schema. */
const SELECTOR_SCHEMA = JSON.parse(JSON.stringify(Selector)) as JsonSchema;

/** A step object: its `type`, its fields, nothing else. */
function step(type: StepType, description: string, fields: Record<string, unknown>, required: string[], extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', description, properties: { type: { const: type }, ...fields }, required: ['type', ...required], additionalProperties: false, ...extra };
}

const defs: Record<string, JsonSchema> = {
  steps: { type: 'array', items: ref('step') },
  step: { type: 'object', required: ['type'], discriminator: { propertyName: 'type' }, oneOf: STEP_TYPES.map((type) => ref(type)) },
  coordinate: { type: 'integer', minimum: 0, maximum: 100_000, description: 'Device pixels' },
  point: { type: 'object', properties: { x: ref('coordinate'), y: ref('coordinate') }, required: ['x', 'y'], additionalProperties: false },
  text: { type: 'string', minLength: 1, maxLength: 10_000 },
  image_id: { type: 'string', pattern: '^img_[0-9a-f]{16}$', description: 'An image-library id' },
  threshold: { type: 'number', minimum: 0, maximum: 1, default: 0.9, description: 'How alike the match must be (image steps only)' },
  selector: SELECTOR_SCHEMA,
  timeout_ms: { type: 'integer', minimum: 0, maximum: MAX_WAIT_MS, default: DEFAULT_TEXT_TIMEOUT_MS, description: 'How long to wait for the element, ms' },
  package: { type: 'string', maxLength: 255, pattern: '^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$', description: 'An Android package name, like com.example.shop' },
  tap: step(
    'tap',
    'Tap a point, the element showing a text, an element of the UI tree by id, where a library image shows, or the one element a selector names (waiting up to timeout_ms for it): exactly one of {x, y}, {text}, {element_id}, {image_id, threshold?}, {selector, timeout_ms?}.',
    {
      x: ref('coordinate'),
      y: ref('coordinate'),
      text: ref('text'),
      element_id: { type: 'string', minLength: 1, maxLength: 200 },
      image_id: ref('image_id'),
      threshold: ref('threshold'),
      selector: ref('selector'),
      timeout_ms: ref('timeout_ms'),
    },
    [],
    { oneOf: TAP_TARGETS, dependentRequired: { threshold: ['image_id'], timeout_ms: ['selector'] } },
  ),
  long_press: step(
    'long_press',
    'Press and hold at {x, y} or on the one element a selector names (waiting for it).',
    { x: ref('coordinate'), y: ref('coordinate'), selector: ref('selector'), ms: { type: 'integer', minimum: 1, maximum: MAX_SWIPE_MS, default: DEFAULT_LONG_PRESS_MS }, timeout_ms: ref('timeout_ms') },
    [],
    { oneOf: PRESS_TARGETS, dependentRequired: { timeout_ms: ['selector'] } },
  ),
  swipe: step('swipe', 'Swipe from one point to another.', { from: ref('point'), to: ref('point'), ms: { type: 'integer', minimum: 0, maximum: MAX_SWIPE_MS, default: DEFAULT_SWIPE_MS } }, ['from', 'to']),
  type: step(
    'type',
    'Type into the focused field, or first into the one element a selector names; "\\n" presses ENTER. clear empties the field first, submit presses ENTER after, secret keeps the text out of the run log.',
    {
      text: ref('text'),
      selector: ref('selector'),
      clear: { type: 'boolean', default: false },
      submit: { type: 'boolean', default: false },
      secret: { type: 'boolean', default: false, description: 'A password: the run log shows only its length' },
      timeout_ms: ref('timeout_ms'),
    },
    ['text'],
    { dependentRequired: { timeout_ms: ['selector'] } },
  ),
  key: step('key', 'Press an Android key: BACK, HOME, ENTER, APP_SWITCH, DEL, …', { key: { type: 'string', pattern: '^[A-Za-z0-9_]{1,64}$' } }, ['key']),
  wait: step('wait', 'Pause.', { ms: { type: 'integer', minimum: 0, maximum: MAX_WAIT_MS } }, ['ms']),
  wait_for_text: step(
    'wait_for_text',
    'Wait until a text shows on the screen; the run fails if it does not within timeout_ms.',
    { text: ref('text'), timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_WAIT_MS, default: DEFAULT_TEXT_TIMEOUT_MS } },
    ['text'],
  ),
  wait_for: step('wait_for', 'Wait until the selector names one visible element on a loaded, settled screen; the run fails if it does not within timeout_ms.', { selector: ref('selector'), timeout_ms: ref('timeout_ms') }, ['selector']),
  wait_gone: step('wait_gone', 'Wait until the selector names no element; the run fails if it is still there after timeout_ms.', { selector: ref('selector'), timeout_ms: ref('timeout_ms') }, ['selector']),
  scroll_to: step(
    'scroll_to',
    'Swipe inside the first scrollable container (else the middle of the screen) until the selector names one element.',
    { selector: ref('selector'), max_swipes: { type: 'integer', minimum: 0, maximum: 200, default: DEFAULT_MAX_SWIPES }, direction: { enum: [...SCROLL_DIRECTIONS], default: 'down' } },
    ['selector'],
  ),
  if_exists: step(
    'if_exists',
    'Run `then` if the selector names an element (waiting up to timeout_ms, default 0), else `else`.',
    { selector: ref('selector'), timeout_ms: { ...ref('timeout_ms'), default: 0 }, then: ref('steps'), else: ref('steps') },
    ['selector', 'then'],
  ),
  interrupt: {
    type: 'object',
    description: 'While any step waits, when `when` shows, `do` runs first (at most five times a wait) and the run log says "handled interrupt: …".',
    properties: { when: ref('selector'), do: ref('interrupt_action') },
    required: ['when', 'do'],
    additionalProperties: false,
  },
  interrupt_action: { type: 'object', required: ['type'], discriminator: { propertyName: 'type' }, oneOf: [ref('interrupt_tap'), ref('key')] },
  interrupt_tap: {
    type: 'object',
    description: 'Tap what `when` names, or this selector, or x, y.',
    properties: { type: { const: 'tap' }, selector: ref('selector'), x: ref('coordinate'), y: ref('coordinate') },
    required: ['type'],
    additionalProperties: false,
    dependentRequired: { x: ['y'], y: ['x'] },
  },
  open_app: step('open_app', 'Bring an app to the front.', { package: ref('package') }, ['package']),
  close_app: step('close_app', 'Force-stop an app.', { package: ref('package') }, ['package']),
  if_text: step('if_text', 'Run `then` if the text shows on the screen now, else `else`.', { text: ref('text'), then: ref('steps'), else: ref('steps') }, ['text', 'then']),
  if_image: step('if_image', 'Run `then` if the library image shows on the screen now, else `else`.', { image_id: ref('image_id'), threshold: ref('threshold'), then: ref('steps'), else: ref('steps') }, ['image_id', 'then']),
  repeat: step('repeat', 'Run the steps this many times.', { times: { type: 'integer', minimum: 1, maximum: MAX_REPEAT }, steps: ref('steps') }, ['times', 'steps']),
  log: step('log', 'Write a line to the run log.', { message: { type: 'string', minLength: 1, maxLength: 8000 } }, ['message']),
};

/** The schema; `$id` is where it is published (`{base_url}/schemas/block-program.json`). */
export function blockProgramSchema(baseUrl = 'http://localhost:8080'): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${baseUrl}${SCHEMA_PATH}`,
    title: 'Block program',
    description: 'A block macro\'s program: {"version": 1, "steps": [...], "interrupts"?: [{"when": selector, "do": step}]}. Each step is one object with a `type` and that type\'s fields. The empty array [] is accepted on create and update as the empty program, which cannot be run.',
    type: 'object',
    properties: { version: { const: 1 }, steps: ref('steps'), interrupts: { type: 'array', items: ref('interrupt'), maxItems: MAX_INTERRUPT_RULES } },
    required: ['version', 'steps'],
    additionalProperties: false,
    $defs: defs,
  };
}
