// The soft keyboard's layout (a QWERTY keyboard in the bottom 900 px, §15), shared by the
// picture (render/keyboard-svg.ts) and the taps (input.ts): a tap on a key types what the
// key shows, so the keyboard a person sees in the live view works as it looks.
import type { Bounds } from '../types.js';
import { SIM_SCREEN } from './app-schema.js';
import { KEYBOARD_TOP } from './view.js';

export type KeyAction = { type: 'char'; char: string } | { type: 'delete' } | { type: 'enter' } | { type: 'none' };

export interface KeyboardKey {
  label: string;
  bounds: Bounds;
  action: KeyAction;
  /** Drawn darker: the keys that do not type a character. */
  modifier: boolean;
}

/** The suggestion strip above the keys. */
export const SUGGESTION_BOTTOM = KEYBOARD_TOP + 120;
const ROW_HEIGHT = 156;
const KEY_WIDTH = SIM_SCREEN.width / 10;

function row(index: number, specs: Array<[label: string, width: number, action: KeyAction, modifier?: boolean]>, indent = 0): KeyboardKey[] {
  const top = SUGGESTION_BOTTOM + index * ROW_HEIGHT;
  let left = indent;
  return specs.map(([label, width, action, modifier]) => {
    const key = { label, bounds: { left: Math.round(left), top, right: Math.round(left + width), bottom: top + ROW_HEIGHT }, action, modifier: modifier ?? false };
    left += width;
    return key;
  });
}

const letters = (text: string) => [...text].map((c): [string, number, KeyAction] => [c, KEY_WIDTH, { type: 'char', char: c }]);

export const KEYBOARD_KEYS: KeyboardKey[] = [
  ...row(0, letters('qwertyuiop')),
  ...row(1, letters('asdfghjkl'), KEY_WIDTH / 2),
  ...row(2, [['⇧', KEY_WIDTH * 1.5, { type: 'none' }, true], ...letters('zxcvbnm'), ['⌫', KEY_WIDTH * 1.5, { type: 'delete' }, true]]),
  ...row(3, [
    ['?123', KEY_WIDTH * 1.5, { type: 'none' }, true],
    [',', KEY_WIDTH, { type: 'char', char: ',' }],
    ['space', KEY_WIDTH * 4.5, { type: 'char', char: ' ' }],
    ['.', KEY_WIDTH, { type: 'char', char: '.' }],
    ['↵', KEY_WIDTH * 2, { type: 'enter' }, true],
  ]),
];

/** The key under the point; taps on the strip or between keys do nothing. */
export function keyAt(x: number, y: number): KeyboardKey | undefined {
  return KEYBOARD_KEYS.find((k) => x >= k.bounds.left && x < k.bounds.right && y >= k.bounds.top && y < k.bounds.bottom);
}
