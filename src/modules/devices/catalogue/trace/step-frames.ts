// The pictures around one step: the "before" frame is the screen just ahead of the step's
// first input (a tap, a swipe, a key, typed text, an app opened or closed), so an action that
// first waited for its element shows the screen it acted on, not the one it started on. An
// interrupt handled during the wait re-arms it: the frame then shows the screen after the
// interrupt, right before the step's own input.
// A driver that counts its inputs and keeps the screen each found (`sim`) is asked once the
// step is over: the same picture, with nothing taken on the input's path and the driver used
// as it is. Elsewhere the device is seen through a wrapper that takes the picture just ahead
// of the first input.
import type { DeviceDriver, UndrawnScreen } from '../../hosts/types.js';
import type { FrameRef } from './frame-admission.js';

const INPUTS = new Set<PropertyKey>(['tap', 'swipe', 'typeText', 'pressKey', 'openApp', 'closeApp', 'installApk']);

type Method = (...args: unknown[]) => unknown;

/**
 * A device's methods other than inputs, bound to it once per recorder, whatever step asks:
 * binding on every access handed each call a new function.
 */
export class BoundMethods {
  private readonly byDevice = new WeakMap<object, Map<PropertyKey, { method: Method; bound: Method }>>();

  of(target: object, property: PropertyKey, method: Method): Method {
    let methods = this.byDevice.get(target);
    if (!methods) this.byDevice.set(target, (methods = new Map()));
    const known = methods.get(property);
    if (known?.method === method) return known.bound;
    const bound = method.bind(target);
    methods.set(property, { method, bound });
    return bound;
  }
}

export class StepFrames {
  readonly driver: DeviceDriver;
  inputStarted = false;
  before: FrameRef | undefined;
  private armed = true;
  /** Counting drivers: inputs begun before the step, and the number of the first one since the last (re-)arming. */
  private readonly inputsBefore: number | undefined;
  private firstInput = 0;

  constructor(
    private readonly inner: DeviceDriver,
    bound: BoundMethods,
    capture: (driver: DeviceDriver) => Promise<{ ref: FrameRef }>,
    private readonly found: (screen: UndrawnScreen) => FrameRef,
  ) {
    if (inner.inputsBegun && inner.screenFoundByInput) {
      // Measured on a 50-step `sim` run: the wrapper cost about 0.5 ms; asking afterwards, nothing.
      this.driver = inner;
      this.inputsBefore = inner.inputsBegun();
      this.firstInput = this.inputsBefore + 1;
      return;
    }
    const takeBefore = async (target: DeviceDriver) => {
      if (!this.armed) return;
      this.armed = false;
      this.before = (await capture(target)).ref;
    };
    const inputStarted = () => (this.inputStarted = true);
    this.driver = new Proxy(inner, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => Promise<unknown>;
        if (!INPUTS.has(property)) return bound.of(target, property, method);
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
    if (this.inputsBefore === undefined) this.armed = true;
    else this.firstInput = this.inner.inputsBegun!() + 1;
  }

  /**
   * The step's action is over: on a counting driver, whether it made an input, and its "before"
   * picture, the screen found by its first input since the last re-arming that looked; when none
   * came after it (a wait that handled an interrupt), by the step's first input that looked.
   */
  done(): void {
    if (this.inputsBefore === undefined) return;
    const made = this.inner.inputsBegun!();
    if (made === this.inputsBefore) return;
    this.inputStarted = true;
    const screen = this.firstFound(this.firstInput, made) ?? this.firstFound(this.inputsBefore + 1, this.firstInput - 1);
    if (screen) this.before = this.found(screen);
  }

  private firstFound(from: number, to: number): UndrawnScreen | undefined {
    for (let input = from; input <= to; input++) {
      const screen = this.inner.screenFoundByInput!(input);
      if (screen) return screen;
    }
    return undefined;
  }
}
