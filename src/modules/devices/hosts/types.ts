// The one device interface both hosts implement. A DeviceHost places a cloud device on a
// slot, boots it and shuts it down; a DeviceDriver drives a booted device. Every method
// reads and writes shared state (the database, the ADB server), never process memory, so a
// job worker and an HTTP route in different processes can drive the same device.
import type { Readable } from 'node:stream';

export const HOST_KINDS = ['sim', 'adb'] as const;
export type HostKind = (typeof HOST_KINDS)[number];

/** Pixel rectangle, Android style: left/top inclusive, right/bottom exclusive. */
export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** One node of the UI tree, as a macro or a tool client sees it. */
export interface UiElement {
  /** Stable within one tree: the app description's id on `sim`, the node's index path on `adb`. */
  element_id: string;
  class: string;
  text: string;
  resource_id: string;
  content_desc: string;
  bounds: Bounds;
  clickable: boolean;
  editable: boolean;
  /** A container that scrolls (a RecyclerView, a ScrollView); `false` on other elements. */
  scrollable: boolean;
  focused?: boolean;
}

export interface InstalledApp {
  package: string;
  label: string;
  version_name: string;
}

/** What an APK's manifest says, and what an install answers. */
export interface ApkInfo {
  package: string;
  label: string;
  version_name: string;
  version_code: number;
}

export interface ScreenSize {
  width: number;
  height: number;
  density: number;
}

export interface CurrentApp {
  package: string;
  /** The foreground activity, when the host can tell. */
  activity: string | null;
}

export type ImageFormat = 'png' | 'jpeg';

export interface ScreenshotOptions {
  /** Default `png`. */
  format?: ImageFormat;
  /** Scale down so the longer edge is at most this many pixels; default the full size. */
  maxEdge?: number;
  /** JPEG quality 1..100 (default 80). */
  quality?: number;
}

export interface Screenshot {
  data: Buffer;
  format: ImageFormat;
  width: number;
  height: number;
}

/** The screen at one moment, drawn only when asked (see `DeviceDriver.screenFoundByInput`). */
export interface UndrawnScreen {
  /** Equal keys are equal pictures, so one seen before needs no drawing; null when only drawing tells. */
  readonly key: string | null;
  draw(options: ScreenshotOptions): Promise<Screenshot>;
}

export interface TapOptions {
  /**
   * Report which element the tap hit, best effort: it never delays or cancels the tap. `sim`
   * always knows. `adb` sends the tap first and names the element from the UI tree this
   * process read of the phone in the last 3 s with no input since (tap-by-text and taps on an
   * element read it just before), else answers null: a UI dump waits for the screen to settle,
   * which on video, spinners or games takes seconds or never happens.
   */
  identify?: boolean;
}

/** An APK to install: a file path, or a stream that is spooled to a private temp file. */
export type ApkSource = string | Readable;

/** One `adb reverse`: the device-side socket (`tcp:20001`) and the one it reaches on the ADB server's machine. */
export interface DeviceReverse {
  remote: string;
  local: string;
}

/**
 * What routing a device's traffic through a proxy changes on the device (the relay recipe
 * of decisions.md §6): only `adb` devices have it; the simulated host has no network to route.
 */
export interface DeviceProxyControl {
  /** `adb reverse tcp:P tcp:P`: the device's 127.0.0.1:P reaches port P on the ADB server's machine. */
  reverse(port: number): Promise<void>;
  /** `adb reverse --remove tcp:P`; false when there was no such reverse. */
  removeReverse(port: number): Promise<boolean>;
  /** `adb reverse --list`. */
  reverses(): Promise<DeviceReverse[]>;
  /** `settings put global http_proxy VALUE` (`host:port`; `:0` turns the proxy off). */
  setHttpProxy(value: string): Promise<void>;
  /** `settings get global http_proxy`; null when it was never set. */
  httpProxy(): Promise<string | null>;
}

export interface DeviceDriver {
  readonly deviceId: number;
  /** `adb` only: the device's proxy setting and reverses, for a run's proxy relay. */
  readonly proxyControl?: DeviceProxyControl;
  screenshot(options?: ScreenshotOptions): Promise<Screenshot>;
  /**
   * `sim` only: how many inputs this driver has begun. With `screenFoundByInput`, a tracer
   * finds the screen a step's first input found after the step, without wrapping the driver.
   */
  inputsBegun?(): number;
  /**
   * `sim` only: the screen input number `input` (as `inputsBegun` counts: a tap, swipe, typed
   * text, key, app opened or closed, APK installed) found, undrawn; undefined when it failed
   * before it looked, or is no longer kept (the last 16 are). A tracer's "before" picture at
   * no cost on the input's path.
   */
  screenFoundByInput?(input: number): UndrawnScreen | undefined;
  /**
   * `sim` only: the screen as this driver's last input left it, at that moment, undrawn;
   * undefined when that input failed. Whoever drives the device next, it stays the picture
   * of that moment: a tracer's "after" picture of a run's last input, with nothing to read.
   */
  screenAfterLastInput?(): UndrawnScreen | undefined;
  /** `sim` only: the screen now, undrawn (a screenshot whose drawing waits until asked, and is skipped for a key seen before). */
  screenNow?(): Promise<UndrawnScreen>;
  /** Every node of the foreground window, in document order. */
  uiTree(): Promise<UiElement[]>;
  /** The element the tap landed on (the topmost clickable one), or null (none, or not identified). */
  tap(x: number, y: number, options?: TapOptions): Promise<UiElement | null>;
  swipe(x1: number, y1: number, x2: number, y2: number, durationMs: number): Promise<void>;
  /** Types into the focused field; `\n` presses ENTER. */
  typeText(text: string): Promise<void>;
  /** An Android key name: `BACK`, `HOME`, `ENTER`, `APP_SWITCH`, `DEL`, … (`KEYCODE_` optional). */
  pressKey(key: string): Promise<void>;
  /** Brings the app to the front (its last screen if it was running), or starts `activity`. */
  openApp(pkg: string, options?: { activity?: string }): Promise<void>;
  /** Force-stops the app: its screens and unsaved field contents are gone. */
  closeApp(pkg: string): Promise<void>;
  listApps(): Promise<InstalledApp[]>;
  installApk(source: ApkSource): Promise<ApkInfo>;
  currentApp(): Promise<CurrentApp | null>;
  screenSize(): Promise<ScreenSize>;
  /** A screen size that never changes (`sim`), known without asking the device; absent where it can change (`adb`: `wm size`). */
  readonly fixedScreenSize?: ScreenSize;
}

export interface Placement {
  deviceId: number;
  host: HostKind;
  /** `adb`: `host:port/serial` of the bound device; `sim`: null (no real slot). */
  slot: string | null;
  status: 'placed' | 'booting' | 'ready';
}

/** Whether the host could take a device now: `reason` says why not, in words a person can act on. */
export type HostCapacity = { available: true } | { available: false; reason: string };

export interface DeviceHost {
  readonly kind: HostKind;
  /**
   * Whether `place` would find a slot for the device now, without taking one: a device that
   * is already placed is available; on `adb` a stopped one needs a serial of the pool that no
   * other cloud device holds (and an ADB server that answers). A look, not a reservation.
   */
  capacityFor(deviceId: number): Promise<HostCapacity>;
  /**
   * Takes a slot for the device (on `adb` a free serial from the pool, bound to the device
   * in the database). Answers the existing placement when the device is already placed.
   * Throws NoDeviceCapacityError when no slot is free.
   */
  place(deviceId: number): Promise<Placement>;
  /** Boots the placed device and resolves once it is ready; safe to repeat after a crash. */
  boot(deviceId: number, options?: { signal?: AbortSignal }): Promise<void>;
  /** Shuts the device down and frees its slot; a device that is not placed is left as it is. */
  shutdown(deviceId: number): Promise<void>;
  /** The placement, or null when the device holds no slot on this host. */
  placement(deviceId: number): Promise<Placement | null>;
  /** A driver for a booted device: DeviceNotFoundError when not placed, DeviceNotReadyError when not booted. */
  driver(deviceId: number): Promise<DeviceDriver>;
  /** Releases the host's own resources (connections); devices stay as they are. */
  close(): Promise<void>;
}
