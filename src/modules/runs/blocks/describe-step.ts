// How a step reads in the run log: `step 3/12: tap "Sign in"`.
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
      return `tap (${step.x}, ${step.y})`;
    case 'swipe':
      return `swipe (${step.from.x}, ${step.from.y}) → (${step.to.x}, ${step.to.y}) in ${step.ms ?? 300} ms`;
    case 'type':
      return `type ${quote(step.text)}`;
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
