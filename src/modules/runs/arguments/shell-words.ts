// Splits a stored command line (`__cli_args__`) into arguments the way a POSIX shell splits
// words (XCU 2.3 token recognition, 2.6.7 quote removal), without running a shell. What a
// shell would do more than split (run a pipeline, redirect, expand a variable, a command, a
// glob or a tilde, drop a comment) is refused with a message naming it, rather than passed on
// as literal text that would mean something else to the person who wrote it.
//
// Hand-written rather than shell-quote's `parse`: that splits `it's` into two words, accepts
// unterminated quotes, passes backticks through and treats an escaped `\*` as a glob.
// test/modules/runs/shell-words.test.ts checks this splitter against /bin/sh itself.

export class ShellSyntaxError extends Error {}

/** Characters that end a word and start an operator when unquoted (XCU 2.10.1 and 2.9). */
const OPERATORS = new Set(['|', '&', ';', '<', '>', '(', ')', '\n']);
const BLANKS = new Set([' ', '\t']);
const GLOB = new Set(['*', '?', '[']);
/** Inside double quotes a backslash escapes only these (XCU 2.2.3). */
const DOUBLE_QUOTE_ESCAPES = new Set(['$', '`', '"', '\\', '\n']);

function operatorName(char: string): string {
  if (char === '\n') return 'a line break (which separates commands)';
  if (char === '<' || char === '>') return `a redirection (${char})`;
  if (char === '(' || char === ')') return `a subshell or grouping (${char})`;
  return `the shell operator ${char}`;
}

const refuse = (what: string, at: number): never => {
  throw new ShellSyntaxError(`holds ${what} at character ${at + 1}; only plain words, quotes and backslashes are accepted (quote it to pass it literally)`);
};

export function splitShellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  // A word exists once any character of it was read, so `''` is an empty argument.
  let inWord = false;
  let i = 0;
  const end = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  while (i < line.length) {
    const char = line[i];
    if (BLANKS.has(char)) {
      end();
      i += 1;
    } else if (char === '\\') {
      if (i + 1 >= line.length) refuse('a backslash with nothing after it', i);
      // Backslash-newline is a line continuation: both vanish.
      if (line[i + 1] !== '\n') {
        word += line[i + 1];
        inWord = true;
      }
      i += 2;
    } else if (char === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) refuse('a single quote that is never closed', i);
      word += line.slice(i + 1, close);
      inWord = true;
      i = close + 1;
    } else if (char === '"') {
      i = readDoubleQuoted(line, i, (text) => (word += text));
      inWord = true;
    } else if (OPERATORS.has(char)) {
      refuse(operatorName(char), i);
    } else if (char === '$') {
      refuse('a $ expansion (a variable or a command substitution)', i);
    } else if (char === '`') {
      refuse('a ` command substitution', i);
    } else if (GLOB.has(char)) {
      refuse(`the pattern character ${char} (a file name glob)`, i);
    } else if (!inWord && char === '~') {
      refuse('a ~ at the start of a word (a home-folder expansion)', i);
    } else if (!inWord && char === '#') {
      refuse('a # at the start of a word (a comment)', i);
    } else {
      word += char;
      inWord = true;
      i += 1;
    }
  }
  end();
  return words;
}

/** Reads a double-quoted part starting at the quote; answers the index after the closing quote. */
function readDoubleQuoted(line: string, open: number, add: (text: string) => void): number {
  let i = open + 1;
  while (i < line.length) {
    const char = line[i];
    if (char === '"') return i + 1;
    if (char === '\\' && i + 1 < line.length && DOUBLE_QUOTE_ESCAPES.has(line[i + 1])) {
      if (line[i + 1] !== '\n') add(line[i + 1]);
      i += 2;
      continue;
    }
    if (char === '$') refuse('a $ expansion inside double quotes (use single quotes for a literal $)', i);
    if (char === '`') refuse('a ` command substitution inside double quotes', i);
    add(char);
    i += 1;
  }
  return refuse('a double quote that is never closed', open);
}
