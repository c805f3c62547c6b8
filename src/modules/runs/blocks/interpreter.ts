// Runs a block program on a device (decisions.md §11) through the same DeviceDriver and
// element look-ups as the Python SDK. Each step writes one log line as it starts
// (`step 3/12: tap "Sign in"`; numbers count every step of the program in reading order, so
// "3" finds the same step in the editor on every pass of a loop). A step that fails ends the
// run `failed`, its error naming the step's number, path (`steps.4.then.0`) and what went
// wrong. Stop and RUN_MAX_SECONDS are checked before every step and cut waits short.
import { type DeviceDriver, findText, tapElement, tapText } from '../../devices/index.js';
import { type ImageFinder, imageShows, tapImage } from '../device/image-matching.js';
import { failed, finished, type RunOutcome, stopped, timeLimitPassed } from '../outcome.js';
import { describeStep } from './describe-step.js';
import { DEFAULT_SWIPE_MS, DEFAULT_TEXT_TIMEOUT_MS } from './program-schema.js';
import { type BlockProgram, childLists, countSteps, type Step } from './program-types.js';
import { messageOf } from '../../../lib/error-message.js';

export interface BlockRunInput {
  program: BlockProgram;
  driver: DeviceDriver;
  /** Whose image library `image_id` steps read: the run's owner. */
  userId: number;
  /** Finds library images on the screen (`tap {image_id}`, `if_image`). */
  images: ImageFinder;
  /** One line per step; the caller ships it to the run log. */
  log: (line: string) => void;
  /** Aborting stops the run (`stopped`). */
  signal?: AbortSignal;
  /** RUN_MAX_SECONDS */
  maxSeconds: number;
  /** How often `wait_for_text` looks at the screen. */
  pollMs?: number;
}

class Ended extends Error {
  constructor(readonly outcome: RunOutcome) {
    super(outcome.stateMessage ?? outcome.state);
  }
}

class StepFailed extends Error {}

export async function runBlockProgram(input: BlockRunInput): Promise<RunOutcome> {
  const { program, driver, signal } = input;
  const total = countSteps(program.steps);
  if (total === 0) return failed('the block program has no steps, so there is nothing to run');
  const deadline = performance.now() + input.maxSeconds * 1000;
  const pollMs = input.pollMs ?? 250;
  // Reading-order numbers, fixed per step object.
  const numbers = new Map<Step, number>();
  const number = (steps: Step[]) => steps.forEach((s) => (numbers.set(s, numbers.size + 1), childLists(s).forEach(([, list]) => number(list))));
  number(program.steps);

  const checkpoint = () => {
    if (signal?.aborted) throw new Ended(stopped());
    if (performance.now() >= deadline) throw new Ended(timeLimitPassed(input.maxSeconds));
  };

  /** Sleeps `ms`, woken early by a stop; the time limit cuts it short too. */
  const pause = async (ms: number) => {
    const until = Math.min(performance.now() + ms, deadline);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(0, until - performance.now()));
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });
    checkpoint();
  };

  const run = async (steps: Step[], path: string, pass: string): Promise<void> => {
    for (const [i, step] of steps.entries()) {
      checkpoint();
      const here = `${path}.${i}`;
      const label = `step ${numbers.get(step)}/${total}`;
      const description = describeStep(step);
      try {
        if (step.type === 'if_text' || step.type === 'if_image') {
          const shown = step.type === 'if_text' ? (await findText(driver, step.text)) !== null : await imageShows(input.images, input.userId, driver, step.image_id, step.threshold);
          input.log(`${label}: ${description}: ${shown ? 'yes, then' : 'no, else'}${pass}`);
          await run(shown ? step.then : (step.else ?? []), `${here}.${shown ? 'then' : 'else'}`, pass);
          continue;
        }
        input.log(`${label}: ${description}${pass}`);
        if (step.type === 'repeat') {
          for (let k = 1; k <= step.times; k += 1) await run(step.steps, `${here}.steps`, `${pass} (repeat ${k}/${step.times})`);
          continue;
        }
        await perform(step);
      } catch (error) {
        // A stop, the time limit, or a nested step's failure (already described): passed up as it is.
        if (error instanceof Ended || error instanceof StepFailed) throw error;
        const why = messageOf(error);
        throw new StepFailed(`step ${numbers.get(step)}/${total} (${here}) failed: ${description}: ${why}`);
      }
    }
  };

  const perform = async (step: Step): Promise<void> => {
    switch (step.type) {
      case 'tap':
        if ('text' in step) await tapText(driver, step.text);
        else if ('element_id' in step) await tapElement(driver, step.element_id);
        else if ('image_id' in step) await tapImage(input.images, input.userId, driver, step.image_id, step.threshold);
        else await driver.tap(step.x, step.y);
        return;
      case 'swipe':
        return driver.swipe(step.from.x, step.from.y, step.to.x, step.to.y, step.ms ?? DEFAULT_SWIPE_MS);
      case 'type':
        return driver.typeText(step.text);
      case 'key':
        return driver.pressKey(step.key);
      case 'wait':
        return pause(step.ms);
      case 'wait_for_text': {
        const timeout = step.timeout_ms ?? DEFAULT_TEXT_TIMEOUT_MS;
        const giveUpAt = performance.now() + timeout;
        while ((await findText(driver, step.text)) === null) {
          if (performance.now() >= giveUpAt) throw new Error(`the text did not show within ${timeout} ms`);
          await pause(Math.min(pollMs, Math.max(0, giveUpAt - performance.now())));
        }
        return;
      }
      case 'open_app':
        return driver.openApp(step.package);
      case 'close_app':
        return driver.closeApp(step.package);
      case 'log':
        return;
      case 'if_text':
      case 'if_image':
      case 'repeat':
        throw new Error(`${step.type} is run by the loop`);
    }
  };

  try {
    await run(program.steps, 'steps', '');
    return finished();
  } catch (error) {
    if (error instanceof Ended) return error.outcome;
    if (error instanceof StepFailed) return failed(error.message);
    throw error;
  }
}
