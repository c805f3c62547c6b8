// Comparing a run's steps with those of the macro's last finished run (issue 32 point 4): the
// first step where the two differ in what was done (the action and its arguments, the block
// path) or in how it went (ok or error). Times and frames are not compared: they differ on
// every run.
import type { TraceStep } from './trace-types';

export interface StepDifference {
  /** Index in this run's steps (may equal its length: this run stopped before the other's next step). */
  index: number;
  /** Why, in words. */
  reason: string;
}

const describe = (step: TraceStep) => `${step.action}${step.block_path ? ` at ${step.block_path}` : ''}`;

/** Object keys in one order, so {x, y} and {y, x} compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The first difference, or undefined when the two did the same steps with the same outcomes. */
export function firstDifference(steps: readonly TraceStep[], other: readonly TraceStep[]): StepDifference | undefined {
  const shared = Math.min(steps.length, other.length);
  for (let index = 0; index < shared; index++) {
    const mine = steps[index];
    const theirs = other[index];
    if (mine.action !== theirs.action || (mine.block_path ?? '') !== (theirs.block_path ?? '')) {
      return { index, reason: `this run did ${describe(mine)} where the other did ${describe(theirs)}` };
    }
    if (canonical(mine.args) !== canonical(theirs.args)) return { index, reason: `${describe(mine)} with other arguments` };
    if (mine.outcome !== theirs.outcome) {
      return { index, reason: mine.outcome === 'error' ? `${describe(mine)} failed here and succeeded in the other run` : `${describe(mine)} succeeded here and failed in the other run` };
    }
  }
  if (steps.length === other.length) return undefined;
  return steps.length < other.length
    ? { index: steps.length, reason: `this run ended after ${steps.length} steps; the other went on to ${describe(other[steps.length])}` }
    : { index: other.length, reason: `the other run ended after ${other.length} steps; this one went on` };
}
