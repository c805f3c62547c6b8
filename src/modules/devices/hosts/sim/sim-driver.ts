// The driver of a simulated device. Each call reads the device's state from the database,
// applies the action through the same resolved view the picture is drawn from, and writes
// the state back (store.ts), so the next call, in this process or any other, sees it.
import { ValidationError } from '../../../../core/errors.js';
import type { Clock } from '../../../../lib/clock.js';
import { readApkManifest } from '../apk/manifest.js';
import { withApkFile } from '../apk/source.js';
import { AppNotInstalledError } from '../errors.js';
import { checkActivity, checkDuration, checkPackage, checkPoint, checkScreenshotOptions, checkText } from '../input-checks.js';
import { parseAndroidKey } from '../keys.js';
import type { ApkInfo, ApkSource, CurrentApp, DeviceDriver, InstalledApp, Screenshot, ScreenshotOptions, ScreenSize, TapOptions, UiElement, UndrawnScreen } from '../types.js';
import { SIM_SCREEN } from './app-schema.js';
import type { SimCatalogue } from './catalogue.js';
import { applyFault, type SimFaultInjector, type SimOperation } from './faults.js';
import { applyCloseApp, applyKey, applyOpenApp, applySwipe, applyTap, applyText } from './input.js';
import { screenForActivity } from './navigation.js';
import type { ScreenRenderer } from './render/raster.js';
import { undrawnScreen } from './undrawn-screen.js';
import type { SimRecord, SimStore } from './store.js';
import { buildView, type SimWorld, toUiElement, uiTreeOf } from './view.js';

export interface SimDriverDeps {
  store: SimStore;
  catalogue: SimCatalogue;
  renderer: ScreenRenderer;
  clock: Clock;
  faults?: SimFaultInjector;
}

/** How many inputs' screens a driver keeps: a step's first input is rarely more than a few back. */
const FOUND_KEPT = 16;

export class SimDriver implements DeviceDriver {
  readonly fixedScreenSize: ScreenSize = { ...SIM_SCREEN };

  constructor(
    readonly deviceId: number,
    private readonly deps: SimDriverDeps,
  ) {}

  private world(record: SimRecord): SimWorld {
    return { state: record.state, installed: record.installed, catalogue: this.deps.catalogue, now: this.deps.clock.now() };
  }

  private async read(operation: SimOperation): Promise<SimWorld> {
    await applyFault(this.deps.faults, operation, this.deviceId);
    return this.world(await this.deps.store.loadBooted(this.deviceId));
  }

  /** Inputs begun, counted (inputsBegun); the screens the last FOUND_KEPT of them found, by number. */
  private inputs = 0;
  private readonly found = new Map<number, UndrawnScreen>();

  inputsBegun(): number {
    return this.inputs;
  }

  screenFoundByInput(input: number): UndrawnScreen | undefined {
    return this.found.get(input);
  }

  /**
   * The world the last input left (as stored, at its moment); undefined when it failed. Only
   * this driver holds it, and nothing changes it: the next read parses a record of its own.
   */
  private lastInputLeft: SimWorld | undefined;

  screenAfterLastInput(): UndrawnScreen | undefined {
    // Keyed when asked, not on every input: only a tracer at a run's end asks.
    return this.lastInputLeft && undrawnScreen(this.lastInputLeft, this.deps.renderer);
  }

  /** Counts an input that begins; it offers no screens until it has looked, so one refused before that offers none. */
  private beginInput(): number {
    this.found.delete(this.inputs + 1 - FOUND_KEPT);
    this.lastInputLeft = undefined;
    return ++this.inputs;
  }

  /** Input number `input` looked at the screen (`stored`: the state as stored, the world about to change). */
  private foundBy(input: number, world: SimWorld, stored: string): void {
    this.found.set(input, undrawnScreen(world, this.deps.renderer, stored));
  }

  /** Input number `input` changed the world to this one (when it is still the last input). */
  private leftBy(input: number, world: SimWorld | undefined): void {
    if (input === this.inputs) this.lastInputLeft = world;
  }

  /** Applies input number `input` to the stored state, remembering the screen it found and the one it left. */
  private async change<T>(input: number, operation: SimOperation, apply: (world: SimWorld) => T): Promise<T> {
    await applyFault(this.deps.faults, operation, this.deviceId);
    let left: SimWorld | undefined;
    const result = await this.deps.store.update(this.deviceId, (record, stored) => {
      const world = this.world(record);
      this.foundBy(input, world, stored);
      const out = apply(world);
      // Applied again after a clash: the last attempt is the one stored.
      left = world;
      return out;
    });
    this.leftBy(input, left);
    return result;
  }

  async screenshot(options: ScreenshotOptions = {}): Promise<Screenshot> {
    checkScreenshotOptions(options);
    return this.deps.renderer.render(buildView(await this.read('screenshot')), options);
  }

  async screenNow(): Promise<UndrawnScreen> {
    return undrawnScreen(await this.read('screenshot'), this.deps.renderer);
  }

  async uiTree(): Promise<UiElement[]> {
    return uiTreeOf(buildView(await this.read('uiTree')));
  }

  async tap(x: number, y: number, _options?: TapOptions): Promise<UiElement | null> {
    const input = this.beginInput();
    checkPoint(SIM_SCREEN, x, y);
    const hit = await this.change(input, 'tap', (world) => applyTap(world, x, y));
    return hit ? toUiElement(hit) : null;
  }

  async swipe(x1: number, y1: number, x2: number, y2: number, durationMs: number): Promise<void> {
    const input = this.beginInput();
    checkPoint(SIM_SCREEN, x1, y1, ['x1', 'y1']);
    checkPoint(SIM_SCREEN, x2, y2, ['x2', 'y2']);
    checkDuration(durationMs);
    await this.change(input, 'swipe', (world) => applySwipe(world, x1, y1, x2, y2, durationMs));
  }

  async typeText(text: string): Promise<void> {
    const input = this.beginInput();
    checkText(text);
    await this.change(input, 'typeText', (world) => applyText(world, text));
  }

  async pressKey(key: string): Promise<void> {
    const input = this.beginInput();
    const parsed = parseAndroidKey(key);
    await this.change(input, 'pressKey', (world) => applyKey(world, parsed));
  }

  async openApp(pkg: string, options: { activity?: string } = {}): Promise<void> {
    const input = this.beginInput();
    checkPackage(pkg);
    if (options.activity !== undefined) checkActivity(options.activity);
    await this.change(input, 'openApp', (world) => {
      const installed = world.installed.find((a) => a.package === pkg);
      if (!installed) throw new AppNotInstalledError(pkg);
      let screen: string | undefined;
      if (options.activity !== undefined) {
        screen = screenForActivity(world.catalogue.appFor(installed), options.activity);
        if (screen === undefined) throw new ValidationError([{ path: 'activity', message: `is not an activity of ${pkg}` }]);
      }
      applyOpenApp(world, pkg, screen);
    });
  }

  async closeApp(pkg: string): Promise<void> {
    const input = this.beginInput();
    checkPackage(pkg);
    await this.change(input, 'closeApp', (world) => {
      if (!world.installed.some((a) => a.package === pkg)) throw new AppNotInstalledError(pkg);
      applyCloseApp(world, pkg);
    });
  }

  async listApps(): Promise<InstalledApp[]> {
    const world = await this.read('listApps');
    return world.installed.map((a) => ({ package: a.package, label: a.label, version_name: a.version_name })).sort((a, b) => a.label.localeCompare(b.label) || a.package.localeCompare(b.package));
  }

  async installApk(source: ApkSource): Promise<ApkInfo> {
    const input = this.beginInput();
    await applyFault(this.deps.faults, 'installApk', this.deviceId);
    await this.deps.store.loadBooted(this.deviceId);
    const info = await withApkFile(source, readApkManifest);
    let left: SimWorld | undefined;
    await this.deps.store.update(this.deviceId, (record, stored) => {
      this.foundBy(input, this.world(record), stored);
      const entry = { package: info.package, label: info.label, version_name: info.version_name, version_code: info.version_code, source: 'apk' as const };
      record.installed = [...record.installed.filter((a) => a.package !== info.package), entry];
      left = this.world(record);
    });
    this.leftBy(input, left);
    return info;
  }

  async currentApp(): Promise<CurrentApp | null> {
    const view = buildView(await this.read('currentApp'));
    return { package: view.package, activity: view.screen.activity };
  }

  async screenSize(): Promise<ScreenSize> {
    await this.read('screenSize');
    return { ...SIM_SCREEN };
  }
}
