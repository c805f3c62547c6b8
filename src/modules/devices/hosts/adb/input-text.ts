// Turning text into `input text` calls. Android's `input text` reads `%s` as a space (it is
// how a space gets through the shell), has no escape for a literal `%s`, and types only
// what the virtual keyboard map has: ASCII. So spaces become `%s`, a literal `%` followed by
// `s` is split across two calls, newlines and tabs become ENTER and TAB keys, and control
// characters are refused. Other text is typed through an IME that decodes what it receives
// (`encode`: modified UTF-7 for the Unicode IME, see unicode-ime.ts); without one it is
// refused with a clear message instead of failing on the device. Long text goes in chunks of
// at most TEXT_CHUNK characters (whole code points), so each call's time limit can follow its
// length. Shell quoting is adbkit's (each argument in single quotes), so `;`, `$()`, quotes
// and the rest reach `input` as typed.
import { ValidationError } from '../../../../core/errors.js';

/** Characters per `input text` call. */
export const TEXT_CHUNK = 100;

export type InputStep =
  /** `text` as `input text` takes it; `chars`: how many characters of the original it types. */
  | { kind: 'text'; text: string; chars: number }
  | { kind: 'key'; keycode: 'KEYCODE_ENTER' | 'KEYCODE_TAB'; chars: 1 };

export interface InputStepOptions {
  /** Turns a chunk into what the active IME decodes back (non-ASCII is refused without it). */
  encode?: (chunk: string) => string;
  chunk?: number;
}

/** True when `input text` alone cannot type the text (it holds more than printable ASCII, newlines and tabs). */
export function needsUnicodeIme(text: string): boolean {
  return /[^\x20-\x7e\n\t]/.test(text);
}

/** C0 controls and DEL, other than newline and tab (typed as keys). */
export function isControl(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return (code < 0x20 && ch !== '\n' && ch !== '\t') || code === 0x7f;
}

function refuse(chars: string[], why: string): never {
  throw new ValidationError([{ path: 'text', message: `${why}: ${[...new Set(chars)].slice(0, 5).map((c) => JSON.stringify(c)).join(', ')}` }]);
}

export function inputSteps(text: string, options: InputStepOptions = {}): InputStep[] {
  const chars = [...text];
  const control = chars.filter(isControl);
  if (control.length > 0) refuse(control, 'has control characters that cannot be typed');
  if (!options.encode && needsUnicodeIme(text)) refuse(chars.filter((ch) => needsUnicodeIme(ch)), 'has characters an ADB device cannot type with "input text" (only ASCII)');
  const encode = options.encode ?? ((chunk: string) => chunk);
  const size = options.chunk ?? TEXT_CHUNK;
  const steps: InputStep[] = [];
  let piece: string[] = [];
  const flush = () => {
    for (let at = 0; at < piece.length; at += size) {
      const chunk = piece.slice(at, at + size);
      steps.push({ kind: 'text', text: encode(chunk.join('')).replace(/ /g, '%s'), chars: chunk.length });
    }
    piece = [];
  };
  chars.forEach((ch, i) => {
    if (ch === '\n' || ch === '\t') {
      flush();
      steps.push({ kind: 'key', keycode: ch === '\n' ? 'KEYCODE_ENTER' : 'KEYCODE_TAB', chars: 1 });
      return;
    }
    piece.push(ch);
    // A literal "%s" would arrive as a space: end the call between the two characters.
    if (ch === '%' && chars[i + 1] === 's') flush();
  });
  flush();
  return steps;
}

/** What Android's `input text` makes of its argument (InputShellCommand.sendText): `%s` → space. */
export function decodeInputText(arg: string): string {
  const buff = [...arg];
  let escape = false;
  for (let i = 0; i < buff.length; i++) {
    if (escape) {
      escape = false;
      if (buff[i] === 's') {
        buff[i] = ' ';
        buff.splice(--i, 1);
      }
    }
    if (buff[i] === '%') escape = true;
  }
  return buff.join('');
}
