// Checks a block program against the published schema (program-schema.ts) and says what is
// wrong in the contract's terms: `[{path, message}]` with paths like
// `body.blocks.steps.2.type` (decisions.md §11). Ajv's raw errors are turned into one
// sentence per mistake: an unknown step type names the kinds there are, a tap with no or
// several targets says which it takes, and a key name is checked against Android's.
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { type FieldError, ValidationError } from '../../../core/errors.js';
import { AppError } from '../../../core/errors.js';
import { validatorOnFirstUse } from '../../../lib/on-first-use.js';
import { parseAndroidKey, parseSelector } from '../../devices/index.js';
import { blockProgramSchema, PRESS_TARGETS, STEP_TYPES, TAP_TARGETS } from './program-schema.js';
import { type BlockProgram, childLists, type Step } from './program-types.js';

// verbose: errors carry the schema objects they come from, which is how a tap's target
// forms are recognised (schema paths are relative to whichever $ref Ajv compiled apart).
const check = validatorOnFirstUse<ErrorObject>(() => new Ajv2020({ allErrors: true, discriminator: true, strict: false, verbose: true }).compile(blockProgramSchema()));

const TARGET_MESSAGE = 'must name exactly one target: x and y, text, element_id, image_id (with an optional threshold), or selector';
const PRESS_MESSAGE = 'must name exactly one target: x and y, or selector';

const joinPath = (prefix: string, instancePath: string, ...more: string[]) =>
  [prefix, ...instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~')), ...more].filter((part) => part !== '').join('.');

function describeError(error: ErrorObject, prefix: string): FieldError | null {
  // A form of the tap's target that did not match: the oneOf's own error says it once.
  if (TAP_TARGETS.includes(error.parentSchema as Record<string, unknown>) || PRESS_TARGETS.includes(error.parentSchema as Record<string, unknown>)) return null;
  if (error.keyword === 'oneOf' && error.schema === TAP_TARGETS) return { path: joinPath(prefix, error.instancePath), message: TARGET_MESSAGE };
  if (error.keyword === 'oneOf' && error.schema === PRESS_TARGETS) return { path: joinPath(prefix, error.instancePath), message: PRESS_MESSAGE };
  const params = error.params as Record<string, string>;
  switch (error.keyword) {
    case 'discriminator':
      return params.error === 'mapping'
        ? { path: joinPath(prefix, error.instancePath, 'type'), message: `must be one of ${STEP_TYPES.join(', ')}` }
        : { path: joinPath(prefix, error.instancePath, 'type'), message: `is required: a step is an object with a type (${STEP_TYPES.join(', ')})` };
    case 'required':
      return { path: joinPath(prefix, error.instancePath, params.missingProperty), message: 'is required' };
    case 'additionalProperties':
      return { path: joinPath(prefix, error.instancePath, params.additionalProperty), message: 'is not a field of this step (or of the program)' };
    case 'dependentRequired':
      return { path: joinPath(prefix, error.instancePath, params.property), message: `is only for a step with ${params.missingProperty}` };
    case 'const':
      return { path: joinPath(prefix, error.instancePath), message: `must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}` };
    default:
      return { path: joinPath(prefix, error.instancePath), message: error.message ?? 'is not valid' };
  }
}

/** What a selector's schema cannot say (a pattern both dialects read alike), at its path. */
function selectorErrors(selector: unknown, path: string): FieldError[] {
  try {
    parseSelector(selector, path);
    return [];
  } catch (error) {
    if (error instanceof AppError && Array.isArray(error.extra.errors)) return error.extra.errors as FieldError[];
    throw error;
  }
}

/** Key names the schema's pattern lets through but Android does not know, and selector patterns. */
function keyErrors(steps: Step[], path: string): FieldError[] {
  return steps.flatMap((step, i) => {
    const here = `${path}.${i}`;
    const own: FieldError[] = 'selector' in step && step.selector !== undefined ? selectorErrors(step.selector, `${here}.selector`) : [];
    if (step.type === 'key') {
      try {
        parseAndroidKey(step.key);
      } catch {
        own.push({ path: `${here}.key`, message: `is not an Android key name (for example BACK, HOME, ENTER, APP_SWITCH, DEL); got "${step.key}"` });
      }
    }
    return [...own, ...childLists(step).flatMap(([name, list]) => keyErrors(list, `${here}.${name}`))];
  });
}

/** The empty array is the empty program (older records and clients send it). */
export function normalizeBlocks(value: unknown): unknown {
  return Array.isArray(value) && value.length === 0 ? { version: 1, steps: [] } : value;
}

/** Every problem of `value` as a block program; empty when it is one. */
export function validateBlockProgram(value: unknown, prefix = 'body.blocks'): FieldError[] {
  const program = normalizeBlocks(value);
  if (Array.isArray(program)) {
    return [{ path: prefix, message: 'must be an object {"version": 1, "steps": [...]}; of arrays only the empty [] is accepted (as the empty program)' }];
  }
  if (!check(program)) {
    const seen = new Set<string>();
    return (check.errors ?? [])
      .map((error) => describeError(error, prefix))
      .filter((error): error is FieldError => error !== null)
      .filter((error) => {
        const id = `${error.path}\0${error.message}`;
        return !seen.has(id) && (seen.add(id), true);
      });
  }
  const { steps, interrupts = [] } = program as BlockProgram;
  const interruptErrors = interrupts.flatMap((rule, i) => [
    ...selectorErrors(rule.when, joinPath(prefix, '', 'interrupts', String(i), 'when')),
    ...(rule.do.type === 'tap' && rule.do.selector ? selectorErrors(rule.do.selector, joinPath(prefix, '', 'interrupts', String(i), 'do', 'selector')) : []),
  ]);
  return [...keyErrors(steps, joinPath(prefix, '', 'steps')), ...interruptErrors];
}

/** The program, normalised; 422 `validation_failed` with every problem otherwise. */
export function parseBlockProgram(value: unknown, prefix = 'body.blocks'): BlockProgram {
  const problems = validateBlockProgram(value, prefix);
  if (problems.length > 0) throw new ValidationError(problems);
  return normalizeBlocks(value) as BlockProgram;
}

/** The rules the macros module keeps a block macro's program by (its BlockProgramRules), handed to it by the wiring. */
export const blockProgramRules = {
  validate: (value: unknown): FieldError[] => validateBlockProgram(value),
  normalize: normalizeBlocks,
};
