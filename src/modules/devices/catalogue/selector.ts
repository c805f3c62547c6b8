// A selector (decisions.md §16): an element named by what it is, not where it was. One schema
// describes it to every surface (tool input schemas, the device RPC, the block program's JSON
// Schema); parseSelector checks what a schema cannot say (a regular expression both Python
// and ECMAScript read alike, which keys go together) and names the key at fault.
import { type Static, Type } from 'typebox';
import { ValidationError } from '../../../core/errors.js';
import { regexProblem } from './regex-dialect.js';

const Str = (description: string) => Type.String({ minLength: 1, maxLength: 500, description });

export const SELECTOR_KEYS = [
  'text',
  'text_contains',
  'text_matches',
  'resource_id',
  'desc',
  'desc_contains',
  'class_name',
  'clickable',
  'editable',
  'scrollable',
  'index',
  'image_id',
  'threshold',
  'ocr_text',
] as const;

export const Selector = Type.Object(
  {
    text: Type.Optional(Str('The exact text (spaces around ignored)')),
    text_contains: Type.Optional(Str('Text containing this')),
    text_matches: Type.Optional(Str('A regular expression searched in the text (the syntax Python and ECMAScript share)')),
    resource_id: Type.Optional(Str('The resource id; "sign_in" also matches "com.example.shop:id/sign_in"')),
    desc: Type.Optional(Str('The exact content description')),
    desc_contains: Type.Optional(Str('A content description containing this')),
    class_name: Type.Optional(Str('The class, like android.widget.Button')),
    clickable: Type.Optional(Type.Boolean()),
    editable: Type.Optional(Type.Boolean()),
    scrollable: Type.Optional(Type.Boolean()),
    index: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: '0-based among the matches, in tree order' })),
    image_id: Type.Optional(Type.String({ pattern: '^img_[0-9a-f]{16}$', description: 'A library image: its best match on the screen' })),
    threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'With image_id; default 0.9' })),
    ocr_text: Type.Optional(Str('Text read from the picture (for text the UI tree lacks), matched like text_contains')),
  },
  { additionalProperties: false, minProperties: 1, description: 'Every given condition must hold (decisions.md §16)' },
);
export type Selector = Static<typeof Selector>;

const TREE_KEYS = new Set<string>(SELECTOR_KEYS.filter((k) => !['image_id', 'threshold', 'ocr_text', 'index'].includes(k)));

const refuse = (path: string, message: string) => new ValidationError([{ path, message }]);

/** The selector as given, checked: an empty one, an unknown key or a bad pattern is refused naming the key. */
export function parseSelector(raw: unknown, path = 'selector'): Selector {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw refuse(path, 'must be an object of selector keys');
  const keys = Object.keys(raw);
  if (keys.length === 0) throw refuse(path, `is empty: give at least one of ${SELECTOR_KEYS.join(', ')}`);
  for (const key of keys) if (!(SELECTOR_KEYS as readonly string[]).includes(key)) throw refuse(`${path}.${key}`, `is not a selector key (the keys are ${SELECTOR_KEYS.join(', ')})`);
  const s = raw as Record<string, unknown>;
  for (const key of keys) {
    const value = s[key];
    const boolKey = key === 'clickable' || key === 'editable' || key === 'scrollable';
    if (boolKey && typeof value !== 'boolean') throw refuse(`${path}.${key}`, 'must be true or false');
    if (key === 'index' && (!Number.isInteger(value) || (value as number) < 0)) throw refuse(`${path}.${key}`, 'must be an integer of 0 or more');
    if (key === 'threshold' && (typeof value !== 'number' || value < 0 || value > 1)) throw refuse(`${path}.${key}`, 'must be a number from 0 to 1');
    if (!boolKey && key !== 'index' && key !== 'threshold' && (typeof value !== 'string' || value.trim() === '')) throw refuse(`${path}.${key}`, 'must be a non-empty string');
  }
  if (typeof s.text_matches === 'string') {
    const problem = regexProblem(s.text_matches);
    if (problem) throw refuse(`${path}.text_matches`, problem);
  }
  if (s.image_id !== undefined) {
    const other = keys.find((k) => k !== 'image_id' && k !== 'threshold');
    if (other) throw refuse(`${path}.${other}`, 'cannot be combined with image_id (an image selector names the best match of the image)');
  } else if (s.threshold !== undefined) {
    throw refuse(`${path}.threshold`, 'goes with image_id only');
  }
  if (s.ocr_text !== undefined) {
    const other = keys.find((k) => TREE_KEYS.has(k));
    if (other) throw refuse(`${path}.${other}`, 'cannot be combined with ocr_text (text read from the picture has no tree attributes)');
  }
  return s as Selector;
}

const shown = (value: unknown) => (typeof value === 'string' ? `'${value.length > 80 ? `${value.slice(0, 79)}…` : value}'` : String(value));

/** How a selector reads in a message or a log line: `text='Sign in', clickable=true`. */
export function describeSelector(selector: Selector): string {
  return Object.entries(selector)
    .map(([key, value]) => `${key}=${shown(value)}`)
    .join(', ');
}
