// The failures of a locator (decisions.md §16), each with its code. Messages are written for
// the person reading a run's log or a tool result: what was asked, what the screen showed.
import { ConflictError, NotFoundError } from '../../../core/errors.js';

/** No element matched in time (or a scroll did not bring it into view). */
export class ElementNotFoundError extends NotFoundError {
  constructor(message: string) {
    super(message, 'element_not_found');
  }
}

/** More than one element matched a selector without `index`: refused at once, never waited on. */
export class AmbiguousSelectorError extends ConflictError {
  constructor(message: string) {
    super('ambiguous_selector', message);
  }
}

/** `gone`: the element was still on the screen when the wait gave up. */
export class ElementStillVisibleError extends ConflictError {
  constructor(message: string) {
    super('element_still_visible', message);
  }
}
