// The command a Python run executes (decisions.md §10): `python3 <entry_path>` followed by
// `__cli_args__` split as a POSIX shell would, or else `--name value` for each argument in
// stored order (objects and arrays as JSON, booleans `true`/`false`). Arguments that no
// command line can carry are refused with the argument's name, before anything runs.
import { type FieldError, ValidationError } from '../../../core/errors.js';
import { CLI_ARGS_KEY, type RunArgs } from './merge.js';
import { ShellSyntaxError, splitShellWords } from './shell-words.js';

export const PYTHON = 'python3';

/** One argument's value as a command-line word. */
export function renderArgValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // Numbers, null, objects and arrays: their JSON, as MACRO_ARGS carries them.
  return JSON.stringify(value) ?? 'null';
}

/** The words after `python3 <entry_path>`; `path` names the arguments in errors (`args`, `body.args`). */
export function argumentWords(args: RunArgs, path = 'args'): string[] {
  const problems: FieldError[] = [];
  let words: string[];
  const cli = args[CLI_ARGS_KEY];
  if (cli !== undefined && cli !== null) {
    if (typeof cli !== 'string') throw new ValidationError([{ path: `${path}.${CLI_ARGS_KEY}`, message: 'must be a string: the command line to pass to the macro' }]);
    try {
      words = splitShellWords(cli);
    } catch (error) {
      if (error instanceof ShellSyntaxError) throw new ValidationError([{ path: `${path}.${CLI_ARGS_KEY}`, message: error.message }]);
      throw error;
    }
  } else {
    words = [];
    for (const [name, value] of Object.entries(args)) {
      if (name === CLI_ARGS_KEY) continue;
      if (name === '') problems.push({ path, message: 'has an argument with an empty name, which cannot be written as --name' });
      words.push(`--${name}`, renderArgValue(value));
    }
  }
  // execve takes NUL-terminated strings: a NUL would cut the argument short, so refuse it.
  if (words.some((word) => word.includes('\0'))) problems.push({ path, message: 'holds a NUL character, which a command line cannot carry' });
  if (problems.length > 0) throw new ValidationError(problems);
  return words;
}

/** The whole command: `python3`, the entry file, then the argument words. */
export function pythonCommand(entryPath: string, args: RunArgs, path = 'args'): string[] {
  return [PYTHON, entryPath, ...argumentWords(args, path)];
}
