// The block program as the interpreter reads it, after validate.ts has checked it against
// program-schema.ts; the step kinds are those of STEP_TYPES there.
import type { Interrupt, ScrollDirection, Selector } from '../../devices/index.js';
import type { StepType } from './program-schema.js';

export interface Point {
  x: number;
  y: number;
}

export type TapStep =
  | { type: 'tap'; x: number; y: number }
  | { type: 'tap'; text: string }
  | { type: 'tap'; element_id: string }
  | { type: 'tap'; image_id: string; threshold?: number }
  | { type: 'tap'; selector: Selector; timeout_ms?: number };

export type Step =
  | TapStep
  | { type: 'swipe'; from: Point; to: Point; ms?: number }
  | { type: 'long_press'; selector?: Selector; x?: number; y?: number; ms?: number; timeout_ms?: number }
  | { type: 'type'; text: string; selector?: Selector; clear?: boolean; submit?: boolean; secret?: boolean; timeout_ms?: number }
  | { type: 'wait_for'; selector: Selector; timeout_ms?: number }
  | { type: 'wait_gone'; selector: Selector; timeout_ms?: number }
  | { type: 'scroll_to'; selector: Selector; max_swipes?: number; direction?: ScrollDirection }
  | { type: 'if_exists'; selector: Selector; timeout_ms?: number; then: Step[]; else?: Step[] }
  | { type: 'key'; key: string }
  | { type: 'wait'; ms: number }
  | { type: 'wait_for_text'; text: string; timeout_ms?: number }
  | { type: 'open_app'; package: string }
  | { type: 'close_app'; package: string }
  | { type: 'if_text'; text: string; then: Step[]; else?: Step[] }
  | { type: 'if_image'; image_id: string; threshold?: number; then: Step[]; else?: Step[] }
  | { type: 'repeat'; times: number; steps: Step[] }
  | { type: 'log'; message: string };

// Every kind the schema names has a type here, and no other.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const STEP_TYPES_MATCH: Same<Step['type'], StepType> = true;

export interface BlockProgram {
  version: 1;
  steps: Step[];
  /** Handled while any step waits (decisions.md §16). */
  interrupts?: Interrupt[];
}

/** Steps that hold steps, and where (`then`, `else`, `steps`). */
export function childLists(step: Step): [string, Step[]][] {
  if (step.type === 'repeat') return [['steps', step.steps]];
  if (step.type === 'if_text' || step.type === 'if_image' || step.type === 'if_exists') return [['then', step.then], ['else', step.else ?? []]];
  return [];
}

/** Every step of the program at any depth. */
export function countSteps(steps: Step[]): number {
  return steps.reduce((n, s) => n + 1 + childLists(s).reduce((m, [, list]) => m + countSteps(list), 0), 0);
}
