// Text for `input text`: spaces as %s, a literal "%s" split so Android does not turn it into
// a space, newlines and tabs as keys, non-ASCII refused; and adbkit's shell quoting holds
// against a real POSIX shell for any text.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { imapDecode } from 'emailjs-utf7';
import { decodeInputText, inputSteps, isControl } from '../../../../src/modules/devices/hosts/adb/input-text.js';
import { encodeForUnicodeIme } from '../../../../src/modules/devices/hosts/adb/unicode-ime.js';

const run = promisify(execFile);

/** What the device ends up with: each `input text` argument decoded as Android does, keys as characters. */
function replay(text: string): string {
  return inputSteps(text)
    .map((step) => (step.kind === 'text' ? decodeInputText(step.text) : step.keycode === 'KEYCODE_ENTER' ? '\n' : '\t'))
    .join('');
}

const typeable = fc.string({ unit: fc.constantFrom(...' %s\n\t'.split(''), ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))), maxLength: 60 });

describe('inputSteps', () => {
  test('any typeable text arrives unchanged', () => {
    fc.assert(
      fc.property(typeable, (text) => {
        expect(replay(text)).toBe(text);
        for (const step of inputSteps(text)) if (step.kind === 'text') expect(step.text).not.toContain(' ');
      }),
      { numRuns: 2000 },
    );
  });

  test.each([
    ['hello world', [{ kind: 'text', text: 'hello%sworld' }]],
    ['100%sure', [{ kind: 'text', text: '100%' }, { kind: 'text', text: 'sure' }]],
    ['50% off', [{ kind: 'text', text: '50%%soff' }]],
    ['a\nb\tc', [{ kind: 'text', text: 'a' }, { kind: 'key', keycode: 'KEYCODE_ENTER' }, { kind: 'text', text: 'b' }, { kind: 'key', keycode: 'KEYCODE_TAB' }, { kind: 'text', text: 'c' }]],
  ])('%j', (text, steps) => {
    expect(inputSteps(text)).toMatchObject(steps);
  });

  test('long text goes in chunks of whole characters, each saying how many it types', () => {
    const text = `${'a'.repeat(150)}😀${'b'.repeat(99)}`;
    const steps = inputSteps(text, { encode: encodeForUnicodeIme });
    expect(steps.map((s) => s.chars)).toEqual([100, 100, 50]);
    expect(steps.map((s) => imapDecode(decodeInputText(s.kind === 'text' ? s.text : ''))).join('')).toBe(text);
  });

  test('any text at all arrives unchanged through the Unicode IME (modified UTF-7), %s and & included', () => {
    const anyText = fc.string({ unit: fc.oneof(fc.constantFrom('%', 's', '&', '-', ' ', '\n', '\t', 'é', '日', '😀'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => !isControl(c))), maxLength: 40 });
    fc.assert(
      fc.property(anyText, (text) => {
        const arrived = inputSteps(text, { encode: encodeForUnicodeIme, chunk: 7 })
          .map((step) => (step.kind === 'text' ? imapDecode(decodeInputText(step.text)) : step.keycode === 'KEYCODE_ENTER' ? '\n' : '\t'))
          .join('');
        expect(arrived).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  test('characters `input text` cannot type are refused, naming them', () => {
    expect(() => inputSteps('café ☕')).toThrow(/"é", "☕"/);
    expect(() => inputSteps('tab\u0007bell')).toThrow(/validation|control/i);
    expect(() => inputSteps('tab\u0007bell', { encode: encodeForUnicodeIme })).toThrow(/control/i);
  });
});

describe("adbkit's shell quoting", () => {
  const { ShellCommand } = createRequire(import.meta.url)('@devicefarmer/adbkit') as { ShellCommand: { prototype: { _escape(arg: string): string } } };
  const quote = (arg: string) => ShellCommand.prototype._escape(arg);

  test('a real sh reads every quoted argument back exactly', async () => {
    const hostile = ["O'Brien", '$(reboot)', '`id`', 'a;b|c&d', '"q"', "''", '\\', '*?[x]', '$HOME', '!!', '%s', 'line\nbreak', ' spaced  '];
    const samples = [...hostile, ...fc.sample(fc.string({ unit: fc.constantFrom(...`'"\\$\`!;|&<>()*?[]{}~# %s\n\tab`.split('')), maxLength: 24 }), 60)];
    for (const text of samples) {
      const { stdout } = await run('sh', ['-c', `printf '%s' ${quote(text)}`]);
      expect(stdout).toBe(text);
    }
  });
});
