// How a step reads in the run log: `step 3/12: tap "Sign in"`.
import { describeSelector } from '../../devices/index.js';
import type { Step } from './program-types.js';

const MAX_SHOWN = 80;

export function quote(text: string): string {
  const shown = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
  return JSON.stringify(shown);
}

/** What the step does, in a few words. Conditions add what they found when they ran. */
export function describeStep(step: Step): string {
  switch (step.type) {
    case 'tap':
      if ('text' in step) return `tap ${quote(step.text)}`;
      if ('element_id' in step) return `tap element ${quote(step.element_id)}`;
      if ('image_id' in step) return `tap image ${step.image_id}`;
      if ('selector' in step) return `tap ${describeSelector(step.selector)}`;
      return `tap (${step.x}, ${step.y})`;
    case 'swipe':
      return `swipe (${step.from.x}, ${step.from.y}) → (${step.to.x}, ${step.to.y}) in ${step.ms ?? 300} ms`;
    case 'long_press':
      return `long press ${step.selector ? describeSelector(step.selector) : `(${step.x}, ${step.y})`}`;
    case 'type': {
      // A secret is never written to the log: only how long it is.
      const what = step.secret ? `[secret, ${[...step.text].length} characters]` : quote(step.text);
      return `type ${what}${step.selector ? ` into ${describeSelector(step.selector)}` : ''}${step.clear ? ' (cleared first)' : ''}${step.submit ? ' and ENTER' : ''}`;
    }
    case 'wait_for':
      return `wait for ${describeSelector(step.selector)} (up to ${step.timeout_ms ?? 10_000} ms)`;
    case 'wait_gone':
      return `wait until ${describeSelector(step.selector)} is gone (up to ${step.timeout_ms ?? 10_000} ms)`;
    case 'scroll_to':
      return `scroll ${step.direction ?? 'down'} to ${describeSelector(step.selector)} (at most ${step.max_swipes ?? 10} swipes)`;
    case 'if_exists':
      return `if ${describeSelector(step.selector)} exists`;
    case 'key':
      return `key ${step.key.toUpperCase()}`;
    case 'wait':
      return `wait ${step.ms} ms`;
    case 'wait_for_text':
      return `wait for ${quote(step.text)} (up to ${step.timeout_ms ?? 10_000} ms)`;
    case 'open_app':
      return `open app ${step.package}`;
    case 'close_app':
      return `close app ${step.package}`;
    case 'if_text':
      return `if text ${quote(step.text)} shows`;
    case 'if_image':
      return `if image ${step.image_id} shows`;
    case 'repeat':
      return `repeat ${step.times} time${step.times === 1 ? '' : 's'}`;
    case 'log':
      return `log: ${step.message}`;
  }
}
