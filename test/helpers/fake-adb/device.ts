// A simulated Android device behind the fake ADB server. Its screen is the simulated host's
// (the same app descriptions, state rules and renderer), kept in memory: `screencap -p`
// answers the rendered PNG, `input tap` changes what the next screencap shows.
import { createSimCatalogue, type SimCatalogue } from '../../../src/modules/devices/hosts/sim/catalogue.js';
import { ScreenRenderer } from '../../../src/modules/devices/hosts/sim/render/raster.js';
import { bootState, type SimInstalledApp, type SimState } from '../../../src/modules/devices/hosts/sim/state.js';
import type { SimWorld } from '../../../src/modules/devices/hosts/sim/view.js';
import { ScreenPower } from './power.js';
import type { Rotation } from './rotation.js';

export type FakeDeviceState = 'device' | 'offline' | 'unauthorized';

export interface FakeDeviceOptions {
  serial: string;
  state?: FakeDeviceState;
  model?: string;
  /** `sys.boot_completed` reads empty until this long after the device was created. */
  bootMs?: number;
  /** More app descriptions (as the sim host takes them), preinstalled. */
  apps?: unknown[];
  /** `pkg/full.Activity` names that `am start` refuses from the shell (android:exported="false"). */
  notExported?: Iterable<string>;
  /** The lock screen is showing (an insecure one: `wm dismiss-keyguard` dismisses it). */
  locked?: boolean;
  behaviour?: Partial<FakeBehaviour>;
}

/**
 * What real devices do that a test may switch, each defaulting to what a current phone does.
 * Set on `device.behaviour` at any time; the next command sees it.
 */
export interface FakeBehaviour {
  /** Dumps write a newline or tab inside an attribute as `&#10;` / `&#9;`, as Android's XML serializer does. */
  characterReferences: boolean;
  /** The device shell expands `$NAME` outside single quotes (to nothing: no such variable). */
  expandVariables: boolean;
  /**
   * No physical HOME/BACK/MENU keys (recent emulators, tablets): `monkey` aborts with
   * `** SYS_KEYS has no physical keys but with factor 2.0%.` (exit 251) before it launches
   * anything, unless given `--pct-syskeys 0`.
   */
  noHardwareKeys: boolean;
  /** Android 7+ (API 24) has `cmd package resolve-activity`; older builds have no `cmd`. */
  hasCmd: boolean;
  /**
   * Xiaomi (MIUI, HyperOS) without "USB debugging (Security settings)": every `input` prints
   * a SecurityException about INJECT_EVENTS and does nothing.
   */
  injectEventsDenied: boolean;
  /** Surface rotation (0 natural, 1 a quarter turn, …): screencap, dump bounds and input use the rotated frame. */
  rotation: Rotation;
  /**
   * How long one `uiautomator dump` holds the phone's one UI automation connection (a real
   * one waits for 1 s of idle first). A second dump meanwhile fails with "UiAutomationService
   * … already registered!", as Android allows one UI automation client at a time.
   */
  uiDumpMs: number;
  /** The next n dumps answer `ERROR: null root node returned by UiTestAutomationBridge.` (a window in transition). */
  uiDumpNullRoots: number;
  /** The screen turns off and locks after this long without input, unless kept on (power.ts); null: never. */
  screenOffAfterMs: number | null;
  /** `input text` takes this long per character typed (a phone: 5–30 ms). */
  inputTextMsPerChar: number;
  /** After `after` more `input text` calls, one types and then takes `ms` longer to answer (once). */
  stallInputText: { after: number; ms: number } | null;
  /** A second display (a cast, a presentation) showing another app; `dumpsys window` lists it first. */
  secondDisplay: { package: string; activity: string } | null;
  /** A system window has focus (the notification shade pulled down): mCurrentFocus names no app. */
  systemWindowFocused: boolean;
  /**
   * A foldable's physical displays (null: one). Logical display 0 shows on the one that is on;
   * `screencap` without `-d` takes the first, black when it is off.
   */
  physicalDisplays: { id: string; on: boolean }[] | null;
  /** `screencap` takes this much longer, as on a phone (0.5–1.5 s: it encodes a full-size PNG on the device). */
  screencapMs: number;
}

export const REAL_DEVICE: FakeBehaviour = {
  characterReferences: true,
  expandVariables: true,
  noHardwareKeys: false,
  hasCmd: true,
  injectEventsDenied: false,
  rotation: 0,
  uiDumpMs: 5,
  uiDumpNullRoots: 0,
  screenOffAfterMs: null,
  inputTextMsPerChar: 0,
  stallInputText: null,
  secondDisplay: null,
  systemWindowFocused: false,
  physicalDisplays: null,
  screencapMs: 0,
};

/** The built-in display's physical id when there is only one. */
export const BUILT_IN_DISPLAY = '4619827259835644672';

/** The phone's natural (portrait) screen, as `wm size` reports it. */
export const NATURAL_SIZE = { width: 1080, height: 2400 };

export interface CommandResult {
  stdout: Buffer;
  exitCode: number;
}

export const ok = (text = ''): CommandResult => ({ stdout: Buffer.from(text), exitCode: 0 });
export const failed = (text: string, exitCode = 1): CommandResult => ({ stdout: Buffer.from(text), exitCode });

const renderer = new ScreenRenderer();

export class FakeAndroidDevice {
  readonly serial: string;
  state: FakeDeviceState;
  readonly model: string;
  readonly files = new Map<string, Buffer>();
  /** Every shell command line received, in order (what the driver really sent). */
  readonly commands: string[] = [];
  /** `adb reverse`s: the device-side socket (`tcp:20001`) → the host-side one, in the order made. */
  readonly reverses = new Map<string, string>();
  /** `settings` values by `namespace/name` (`global/http_proxy`); an unset one reads `null`. */
  readonly settings = new Map<string, string>();
  /** Answer the next n `uiautomator dump`s with the idle-state error. */
  uiDumpIdleFailures = 0;
  /** A UI automation client is connected (a dump is running). */
  uiAutomationBusy = false;
  /** Per package installed from an APK: whether its runtime permissions were granted at install (`pm install -g`). */
  readonly grantedAtInstall = new Map<string, boolean>();
  /** Screen on or off, lock screen shown or not. */
  readonly power: ScreenPower = new ScreenPower(this);
  readonly catalogue: SimCatalogue;
  readonly notExported: Set<string>;
  behaviour: FakeBehaviour;
  simState: SimState;
  installed: SimInstalledApp[];
  private readonly bootedAt: number;

  constructor(options: FakeDeviceOptions) {
    this.serial = options.serial;
    this.state = options.state ?? 'device';
    this.model = options.model ?? 'svc Fake Phone';
    this.bootedAt = Date.now() + (options.bootMs ?? 0);
    this.catalogue = createSimCatalogue(options.apps ?? []);
    this.notExported = new Set(options.notExported ?? []);
    this.behaviour = { ...REAL_DEVICE, ...options.behaviour };
    this.power.locked = options.locked ?? false;
    // A phone always has its keyboard set.
    this.settings.set('secure/default_input_method', 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME');
    this.simState = bootState(Date.now());
    this.installed = [...this.catalogue.preinstalled];
  }

  get bootCompleted(): boolean {
    return Date.now() >= this.bootedAt;
  }

  get renderer(): ScreenRenderer {
    return renderer;
  }

  world(): SimWorld {
    return { state: this.simState, installed: this.installed, catalogue: this.catalogue, now: Date.now() };
  }

  properties(): Record<string, string> {
    return {
      'ro.product.model': this.model,
      'ro.product.manufacturer': 'svc',
      'ro.product.name': 'svc_fake',
      'ro.product.device': 'svc_fake',
      'ro.build.version.release': '14',
      'ro.build.version.sdk': '34',
      'ro.serialno': this.serial,
      'sys.boot_completed': this.bootCompleted ? '1' : '',
    };
  }

  /** What `host:features` answers for this device. Without shell_v2, clients use plain `shell:`. */
  features(): string {
    return 'cmd';
  }
}
