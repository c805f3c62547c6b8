// `text_matches` takes the regular-expression syntax common to Python's `re` and ECMAScript
// (decisions.md §16), so a selector means the same in a macro, a block program and a tool
// call. The pattern must compile as an ECMAScript RegExp, and constructs only one of the two
// dialects reads (or reads differently) are refused with a sentence naming them.

/** Escapes both dialects read alike; any other backslash-letter is refused. */
const COMMON_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'b', 'B', 'n', 't', 'r', 'f', 'v', 'x', 'u']);

const ONE_DIALECT: [RegExp, string][] = [
  [/\(\?P/, 'named groups written (?P<name>…) are Python only'],
  [/\(\?<(?![=!])/, 'named groups written (?<name>…) are ECMAScript only'],
  [/\(\?[aiLmsux-]+[):]/, 'inline flags such as (?i) are Python only; use [Ss] for case'],
  [/\(\?#/, 'comments (?#…) are Python only'],
  [/\(\?>/, 'atomic groups (?>…) are Python only'],
  [/\\[kKpPcAZzNgG]/, 'this escape is not read alike by Python and ECMAScript'],
  [/[*+?}]\+/, 'possessive quantifiers (*+, ++) are Python only'],
];

/** The reason the pattern is refused, or null when both dialects read it alike. */
export function regexProblem(pattern: string): string | null {
  for (let i = 0; i < pattern.length; i += 1) {
    if (pattern[i] !== '\\') continue;
    const next = pattern[i + 1] ?? '';
    if (/[A-Za-z]/.test(next) && !COMMON_ESCAPES.has(next)) return `the escape \\${next} is not read alike by Python and ECMAScript`;
    i += 1;
  }
  for (const [construct, why] of ONE_DIALECT) if (construct.test(pattern)) return why;
  try {
    new RegExp(pattern);
  } catch (error) {
    return `is not a valid regular expression (${(error as Error).message.replace(/^Invalid regular expression: /, '')})`;
  }
  return null;
}
