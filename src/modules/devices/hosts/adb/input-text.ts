// Turning text into `input text` calls. Android's `input text` reads `%s` as a space (it is
// how a space gets through the shell), has no escape for a literal `%s`, and types only
// what the virtual keyboard map has: ASCII. So spaces become `%s`, a literal `%` followed by
// `s` is split across two calls, newlines and tabs become ENTER and TAB keys, and other
// characters are refused with a clear message instead of failing on the device. Shell
// quoting is adbkit's (each argument in single quotes), so `;`, `$()`, quotes and the rest
// reach `input` as typed.
import { ValidationError } from '../../../../core/errors.js';

export type InputStep = { kind: 'text'; text: string } | { kind: 'key'; keycode: 'KEYCODE_ENTER' | 'KEYCODE_TAB' };

export function inputSteps(text: string): InputStep[] {
  const unsupported = [...new Set([...text].filter((ch) => !/[\x20-\x7e\n\t]/.test(ch)))];
  if (unsupported.length > 0) {
    throw new ValidationError([
      { path: 'text', message: `has characters an ADB device cannot type with "input text" (only ASCII): ${unsupported.slice(0, 5).map((c) => JSON.stringify(c)).join(', ')}` },
    ]);
  }
  const steps: InputStep[] = [];
  let chunk = '';
  const flush = () => {
    if (chunk !== '') steps.push({ kind: 'text', text: chunk.replace(/ /g, '%s') });
    chunk = '';
  };
  const chars = [...text];
  chars.forEach((ch, i) => {
    if (ch === '\n' || ch === '\t') {
      flush();
      steps.push({ kind: 'key', keycode: ch === '\n' ? 'KEYCODE_ENTER' : 'KEYCODE_TAB' });
      return;
    }
    chunk += ch;
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
