// Runs a block program on a device (decisions.md §11, §16) through the device-action
// catalogue, the same entries the Python SDK's device RPC and the tool server run; the
// program's `interrupts` are handled while any step waits. Each step writes one log line as it starts
// (`step 3/12: tap "Sign in"`; numbers count every step of the program in reading order, so
// "3" finds the same step in the editor on every pass of a loop). A step that fails ends the
// run `failed`, its error naming the step's number, path (`steps.4.then.0`) and what went
// wrong. Stop and RUN_MAX_SECONDS are checked before every step and cut waits short.
import { type ActionEnv, type ActionTracer, AmbiguousSelectorError, type DeviceDriver, ElementNotFoundError, entryNamed, findText, tracedStep } from '../../devices/index.js';
import { type ImageFinder, imageShows, tapImage } from '../device/image-matching.js';
import { failed, finished, type RunOutcome, stopped, timeLimitPassed } from '../outcome.js';
import { describeStep } from './describe-step.js';
import { DEFAULT_SWIPE_MS, DEFAULT_TEXT_TIMEOUT_MS } from './program-schema.js';
import { type BlockProgram, childLists, countSteps, type Step } from './program-types.js';
import { messageOf } from '../../../lib/error-message.js';
import { compact } from '../../../lib/compact.js';

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
  /** Records each step that acts on or reads the device (not `log`, `repeat`, `if_*`) in the run's trace (§17). */
  tracer?: ActionTracer;
}

/** A step's catalogue arguments: its fields without its own `type`. */
function argsOf(step: object): Record<string, unknown> {
  const args = { ...(step as Record<string, unknown>) };
  delete args.type;
  return args;
}

/** One catalogue action with the run's environment. */
const act = (env: ActionEnv, name: string, step: object) => entryNamed(name).run(env, argsOf(step));

/** `if_exists`: one element or several is "exists"; nothing within the time is "does not". */
async function exists(env: ActionEnv, selector: Record<string, unknown>, timeoutMs: number): Promise<boolean> {
  try {
    await act(env, 'device_wait_for', { selector, timeout_ms: timeoutMs });
    return true;
  } catch (error) {
    if (error instanceof AmbiguousSelectorError) return true;
    if (error instanceof ElementNotFoundError) return false;
    throw error;
  }
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
  // Waits inside an action end at a stop or at the time limit, whichever comes first.
  const waits = new AbortController();
  const limitTimer = setTimeout(() => waits.abort(), Math.max(0, deadline - performance.now()));
  const onStop = () => waits.abort();
  signal?.addEventListener('abort', onStop, { once: true });
  const env: ActionEnv = { driver, owner: { userId: input.userId }, vision: input.images, interrupts: program.interrupts, log: input.log, signal: waits.signal };
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
        if (step.type === 'if_text' || step.type === 'if_image' || step.type === 'if_exists') {
          const shown =
            step.type === 'if_text'
              ? (await findText(driver, step.text)) !== null
              : step.type === 'if_image'
                ? await imageShows(input.images, input.userId, driver, step.image_id, step.threshold)
                : await exists(env, step.selector, step.timeout_ms ?? 0);
          input.log(`${label}: ${description}: ${shown ? 'yes, then' : 'no, else'}${pass}`);
          await run(shown ? step.then : (step.else ?? []), `${here}.${shown ? 'then' : 'else'}`, pass);
          continue;
        }
        input.log(`${label}: ${description}${pass}`);
        if (step.type === 'repeat') {
          for (let k = 1; k <= step.times; k += 1) await run(step.steps, `${here}.steps`, `${pass} (repeat ${k}/${step.times})`);
          continue;
        }
        await perform(step, here);
      } catch (error) {
        // A stop, the time limit, or a nested step's failure (already described): passed up as it is.
        if (error instanceof Ended || error instanceof StepFailed) throw error;
        checkpoint();
        const why = messageOf(error);
        throw new StepFailed(`step ${numbers.get(step)}/${total} (${here}) failed: ${description}: ${why}`);
      }
    }
  };

  /** One step that acts on or reads the device, traced under its catalogue name (without `device_`). */
  const perform = async (step: Step, path: string): Promise<void> => {
    const traced = (action: string, args: Record<string, unknown>, work: (env: ActionEnv) => Promise<unknown>) => tracedStep(input.tracer, { action, args, blockPath: path }, env, work);
    const entry = (action: string, name: string, args: Record<string, unknown>) => traced(action, args, (e) => entryNamed(name).run(e, args));
    switch (step.type) {
      case 'tap':
        if ('image_id' in step) await traced('tap', argsOf(step), (e) => tapImage(input.images, input.userId, e.driver, step.image_id, step.threshold));
        else await entry('tap', 'device_tap', argsOf(step));
        return;
      case 'long_press':
        await entry('long_press', 'device_long_press', argsOf(step));
        return;
      case 'swipe':
        await entry('swipe', 'device_swipe', { from: step.from, to: step.to, ms: step.ms ?? DEFAULT_SWIPE_MS });
        return;
      case 'type':
        await entry('type', 'device_type', argsOf(step));
        return;
      case 'key':
        await entry('key', 'device_key', { key: step.key });
        return;
      case 'wait':
        await traced('wait', { ms: step.ms }, () => pause(step.ms));
        return;
      case 'wait_for_text':
        // §16: the old step means wait_for {selector: {text}}.
        await entry('wait_for', 'device_wait_for', { selector: { text: step.text }, timeout_ms: step.timeout_ms ?? DEFAULT_TEXT_TIMEOUT_MS });
        return;
      case 'wait_for':
        await entry('wait_for', 'device_wait_for', compact({ selector: step.selector, timeout_ms: step.timeout_ms }));
        return;
      case 'wait_gone':
        await entry('wait_for', 'device_wait_for', compact({ selector: step.selector, timeout_ms: step.timeout_ms, gone: true }));
        return;
      case 'scroll_to':
        await entry('scroll_to', 'device_scroll_to', compact({ selector: step.selector, max_swipes: step.max_swipes, direction: step.direction }));
        return;
      case 'open_app':
        await entry('app_open', 'app_open', { package: step.package });
        return;
      case 'close_app':
        await entry('app_close', 'app_close', { package: step.package });
        return;
      case 'log':
        return;
      case 'if_text':
      case 'if_image':
      case 'if_exists':
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
  } finally {
    clearTimeout(limitTimer);
    signal?.removeEventListener('abort', onStop);
  }
}
