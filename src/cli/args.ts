// Reading the key commands' options: ids, `--arg name=value`, and usage errors that say how
// the command is used.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from '../lib/cli-error.js';
import { COMMAND_FAILED } from './key-client.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type WithJson<T extends Options> = T & { json: { type: 'boolean' } };
type Parsed<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: WithJson<T>; allowPositionals: true; strict: true }>>;

/** The command's options plus `--json`, which every key command takes. */
export function parseCommand<T extends Options>(args: string[], options: T, usage: string): Parsed<T> {
  try {
    return parseArgs({ args, options: { ...options, json: { type: 'boolean' } } as WithJson<T>, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n${usage}`, COMMAND_FAILED);
  }
}

/** A positive whole number (an id, a count), or a usage error naming the option. */
export function positiveInteger(value: string | undefined, name: string, usage: string): number {
  if (value === undefined || !/^[1-9]\d{0,15}$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new CliError(`${name} must be a positive whole number${value === undefined ? '' : ` (got "${value}")`}\n${usage}`, COMMAND_FAILED);
  }
  return Number(value);
}

/** A cloud run as the run routes take it: its number, or its execution_id (`cr_` + 24 hex). */
export function runRef(value: string | undefined, usage: string): number | string {
  if (value !== undefined && /^cr_[0-9a-f]{24}$/.test(value)) return value;
  return positiveInteger(value, 'the run (its id or execution_id)', usage);
}

/**
 * `--arg name=value`, typed as `gh api -F` types its fields: `true`, `false`, `null` and
 * numbers become JSON values, anything else stays a string. `--args-json` sets them all at
 * once (for a string that looks like a number); `--arg` is laid over it.
 */
export function runArgs(pairs: string[] | undefined, json: string | undefined, usage: string): Record<string, unknown> | undefined {
  let args: Record<string, unknown> | undefined;
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      throw new CliError(`--args-json is not JSON: ${(error as Error).message}\n${usage}`, COMMAND_FAILED);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new CliError(`--args-json must be a JSON object\n${usage}`, COMMAND_FAILED);
    args = { ...parsed };
  }
  for (const pair of pairs ?? []) {
    const at = pair.indexOf('=');
    if (at < 1) throw new CliError(`--arg takes name=value (got "${pair}")\n${usage}`, COMMAND_FAILED);
    args = { ...args, [pair.slice(0, at)]: typedValue(pair.slice(at + 1)) };
  }
  return args;
}

function typedValue(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return text;
  const number = Number(text);
  // A number JSON cannot carry exactly (an id of 20 digits) stays the text it was.
  const exact = /^-?\d+$/.test(text) ? Number.isSafeInteger(number) : Number.isFinite(number);
  return exact ? number : text;
}
