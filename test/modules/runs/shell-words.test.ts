// `__cli_args__` splitting: the words a POSIX shell would make, checked against /bin/sh
// itself, and a clear refusal for everything a shell would do beyond splitting.
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { splitShellWords } from '../../../src/modules/runs/arguments/shell-words.js';

/** What /bin/sh makes of `line` as the arguments of a command. */
function shellWords(line: string): string[] {
  const script = `set -- ${line}\nfor a do printf '%s\\0' "$a"; done`;
  const result = spawnSync('/bin/sh', ['-c', script], { encoding: 'utf8', env: {} });
  if (result.status !== 0) throw new Error(`sh failed on ${JSON.stringify(line)}: ${result.stderr}`);
  const out = result.stdout;
  return out === '' ? [] : out.slice(0, -1).split('\0');
}

describe('splitting', () => {
  test.each([
    ['', []],
    ['   ', []],
    ['a b\tc', ['a', 'b', 'c']],
    ['--name "Ada Lovelace" --n 3', ['--name', 'Ada Lovelace', '--n', '3']],
    ["'single $HOME *' next", ['single $HOME *', 'next']],
    ['"it\'s" here', ["it's", 'here']],
    ['a\\ b', ['a b']],
    ['"a\\"b" \'c\'"d"e', ['a"b', 'cde']],
    ['"back\\slash"', ['back\\slash']],
    ["''", ['']],
    ['a \'\' b', ['a', '', 'b']],
    ['--x=1 --y="2 3"', ['--x=1', '--y=2 3']],
    ['a~b c#d {x,y} e=f ]', ['a~b', 'c#d', '{x,y}', 'e=f', ']']],
    ['one\\\ntwo', ['onetwo']],
    ['"\\$5" \\*', ['$5', '*']],
    ['ünïcødé "日本 語"', ['ünïcødé', '日本 語']],
  ])('%j → %j, as sh makes it', (line, words) => {
    expect(splitShellWords(line)).toEqual(words);
    expect(shellWords(line)).toEqual(words);
  });

  test('agrees with /bin/sh on generated command lines it accepts', () => {
    const alphabet = fc.constantFrom('a', 'b', 'é', ' ', '\t', "'", '"', '\\', '\n', '=', '-', '.', '~', '#', '$', '*', '|', '`', '{', '}');
    let compared = 0;
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 14 }).map((chars) => chars.join('')), (line) => {
        let words: string[];
        try {
          words = splitShellWords(line);
        } catch {
          return; // refused: nothing is passed on
        }
        compared += 1;
        expect(words).toEqual(shellWords(line));
      }),
      { numRuns: 400, seed: 11 },
    );
    // The comparison must have happened often enough to mean something.
    expect(compared).toBeGreaterThan(60);
  });
});

describe('refusals name what the shell would have done', () => {
  test.each([
    ['a && b', /shell operator &/],
    ['a | b', /shell operator \|/],
    ['a; b', /shell operator ;/],
    ['a > out.txt', /redirection \(>\)/],
    ['a < in', /redirection \(</],
    ['(a)', /subshell/],
    ['a\nb', /line break/],
    ['--home $HOME', /\$ expansion/],
    ['"$HOME"', /\$ expansion inside double quotes/],
    ['$(id)', /\$ expansion/],
    ['`id`', /command substitution/],
    ['"`id`"', /command substitution inside double quotes/],
    ['*.py', /glob/],
    ['file?.txt', /glob/],
    ['[ab]', /glob/],
    ['~/data', /home-folder/],
    ['a #comment', /comment/],
    ["it's", /single quote that is never closed/],
    ['"open', /double quote that is never closed/],
    ['trailing\\', /backslash with nothing after it/],
  ])('%j', (line, message) => {
    expect(() => splitShellWords(line)).toThrow(message);
  });

  test('the refusal says where', () => {
    expect(() => splitShellWords('--a 1 | tee')).toThrow(/at character 7/);
  });
});
