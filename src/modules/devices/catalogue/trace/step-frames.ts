// The pictures around one step: the device seen through a wrapper that takes the "before"
// frame just ahead of the step's first input (a tap, a swipe, a key, typed text, an app
// opened or closed), so an action that first waited for its element shows the screen it
// acted on, not the one it started on. An interrupt handled during the wait re-arms it: the
// frame then shows the screen after the interrupt, right before the step's own input.
// A driver that tells which screen its input found (`sim`) is asked after the input instead:
// the same picture, with nothing taken on the input's path.
import type { DeviceDriver, UndrawnScreen } from '../../hosts/types.js';

const INPUTS = new Set<PropertyKey>(['tap', 'swipe', 'typeText', 'pressKey', 'openApp', 'closeApp', 'installApk']);

/** A taken picture: its frame id once the recorder has looked at it (undefined: none kept). */
export type FrameRef = Promise<string | undefined>;

type Method = (...args: unknown[]) => unknown;

/**
 * A device's methods other than inputs, bound to it once, whatever step asks: binding on every
 * access handed each call a new function, which cost a traced 50-step run on `sim` about
 * 0.9 ms (bench/traces.js), more than the rest of its frames' work.
 */
const boundMethods = new WeakMap<object, Map<PropertyKey, { method: Method; bound: Method }>>();

function boundTo(target: object, property: PropertyKey, method: Method): Method {
  let methods = boundMethods.get(target);
  if (!methods) boundMethods.set(target, (methods = new Map()));
  const known = methods.get(property);
  if (known?.method === method) return known.bound;
  const bound = method.bind(target);
  methods.set(property, { method, bound });
  return bound;
}

export class StepFrames {
  readonly driver: DeviceDriver;
  inputStarted = false;
  before: FrameRef | undefined;
  private armed = true;

  constructor(inner: DeviceDriver, capture: (driver: DeviceDriver) => Promise<{ ref: FrameRef }>, found: (screen: UndrawnScreen) => FrameRef) {
    const takeBefore = async (target: DeviceDriver) => {
      if (!this.armed) return;
      this.armed = false;
      this.before = (await capture(target)).ref;
    };
    /** Runs the input, then names the screen it found as the "before" picture (when armed). */
    const foundBefore = async (target: DeviceDriver, input: () => Promise<unknown>) => {
      const armed = this.armed;
      this.armed = false;
      try {
        return await input();
      } finally {
        const screen = armed ? target.screenBeforeLastInput?.() : undefined;
        if (screen) this.before = found(screen);
        else if (armed) this.armed = true;
      }
    };
    const inputStarted = () => (this.inputStarted = true);
    this.driver = new Proxy(inner, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => Promise<unknown>;
        if (!INPUTS.has(property)) return boundTo(target, property, method);
        if (typeof target.screenBeforeLastInput === 'function') {
          return (...args: unknown[]) => {
            inputStarted();
            return foundBefore(target, () => method.apply(target, args));
          };
        }
        return async (...args: unknown[]) => {
          await takeBefore(target);
          inputStarted();
          return method.apply(target, args);
        };
      },
    });
  }

  /** An interrupt acted: the next input takes the "before" frame again. */
  rearm(): void {
    this.armed = true;
  }
}
