// The driver of a device reached through an ADB server, with the commands of decisions.md §9:
// screencap, input, uiautomator, am/monkey, pm, dumpsys. Each call goes to the device, so any
// process with access to the ADB server can drive it. What this process last saw of a phone
// (its rotation, its last UI tree) is kept only to spare a question: a point that view refuses
// is checked again against the device, and a tree names a tap's element only while fresh.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import sharp from 'sharp';
import { ValidationError } from '../../../../core/errors.js';
import { readApkManifest } from '../apk/manifest.js';
import { withApkFile } from '../apk/source.js';
import { ApkInstallFailedError, AppNotInstalledError, DeviceHostFaultError, InvalidApkError } from '../errors.js';
import { checkActivity, checkDuration, checkPackage, checkPoint, checkScreenshotOptions, checkText, scaledSize } from '../input-checks.js';
import { parseAndroidKey } from '../keys.js';
import type { ApkInfo, ApkSource, CurrentApp, DeviceDriver, DeviceProxyControl, InstalledApp, Screenshot, ScreenshotOptions, ScreenSize, TapOptions, UiElement } from '../types.js';
import type { ApkLabels } from './apk-labels.js';
import { amStartCommand, amStartFailure, monkeyLaunchCommand, monkeyLaunched, resolvedComponent, resolveLauncherCommand } from './am-start.js';
import { type AdbTarget, pushFile, screencap, shellText } from './commands.js';
import { currentAppFromActivities, currentAppFromDisplays, currentAppFromWindows, type PackageVersion, parsePackageCodes, parsePackageList, parsePackageVersions } from './dumpsys.js';
import { runInput } from './input.js';
import { type InputStep, inputSteps, needsUnicodeIme } from './input-text.js';
import { AdbProxyControl } from './proxy-control.js';
import { rotatedSize, rotationFromDisplayDump, type SeenRotations } from './display.js';
import type { SeenTrees } from './seen-trees.js';
import { encodeForUnicodeIme, ensureSettingsApp, SETTINGS_APP, withUnicodeIme } from './unicode-ime.js';
import { dumpUi } from './ui-dump.js';
import { elementAt } from './ui-xml.js';

export interface AdbDriverOptions {
  commandTimeoutMs: number;
  installTimeoutMs: number;
  uiDumpAttempts: number;
  uiDumpBackoffMs: number;
  /** What each typed character adds to an `input text` call's time limit. */
  textMsPerChar: number;
}

/** What the host shares with the drivers it makes. */
export interface AdbDriverShared {
  /** What this process last saw of each device's rotation (display.ts). */
  rotations: SeenRotations;
  /** The UI tree this process read of each device last, to name what a tap hits (seen-trees.ts). */
  trees: SeenTrees;
  /** Runs `work` as the only UI dump of the phone at `slot`, across processes. */
  exclusiveUi<T>(slot: string, work: () => Promise<T>): Promise<T>;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export class AdbDriver implements DeviceDriver {
  readonly proxyControl: DeviceProxyControl;

  constructor(
    readonly deviceId: number,
    private readonly target: AdbTarget,
    /** The natural (unrotated) size, read at boot and kept with the placement. */
    private readonly size: ScreenSize,
    private readonly shared: AdbDriverShared,
    private readonly labels: ApkLabels,
    private readonly options: AdbDriverOptions,
    /** The physical display that was on at boot, on a phone with several (screencap -d); null: the default. */
    private readonly display: string | null = null,
  ) {
    this.proxyControl = new AdbProxyControl(target, options.commandTimeoutMs);
  }

  private run(command: string | string[], timeoutMs = this.options.commandTimeoutMs): Promise<string> {
    return shellText(this.target, command, timeoutMs);
  }

  /** An `input` command, whose answer says whether the event went in. It spends what was seen of the screen. */
  private input(command: string | string[], timeoutMs = this.options.commandTimeoutMs): Promise<void> {
    this.shared.trees.spend(this.slot);
    return runInput(this.target, command, timeoutMs);
  }

  async screenshot(options: ScreenshotOptions = {}): Promise<Screenshot> {
    checkScreenshotOptions(options);
    const png = await screencap(this.target, this.options.commandTimeoutMs, this.display);
    if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new DeviceHostFaultError(`The screenshot of ${this.target.serial} is not a PNG (${png.length} bytes).`);
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    this.shared.rotations.fromPicture(this.slot, this.size, width, height);
    const format = options.format ?? 'png';
    const out = scaledSize({ width, height }, options.maxEdge);
    if (format === 'png' && out.scale === 1) return { data: png, format, width, height };
    let image = sharp(png);
    if (out.scale !== 1) image = image.resize(out.width, out.height);
    const data = format === 'png' ? await image.png({ compressionLevel: 3, adaptiveFiltering: false }).toBuffer() : await image.flatten({ background: '#ffffff' }).jpeg({ quality: options.quality ?? 80 }).toBuffer();
    return { data, format, width: out.width, height: out.height };
  }

  async uiTree(): Promise<UiElement[]> {
    const generation = this.shared.trees.begin(this.slot);
    const dump = await dumpUi(this.target, {
      attempts: this.options.uiDumpAttempts,
      backoffMs: this.options.uiDumpBackoffMs,
      timeoutMs: this.options.commandTimeoutMs,
      exclusive: (work) => this.shared.exclusiveUi(this.slot, work),
    });
    if (dump.rotation !== null) this.shared.rotations.set(this.slot, dump.rotation);
    this.shared.trees.remember(this.slot, generation, dump.elements, Date.now());
    return dump.elements;
  }

  private get slot(): string {
    return `${this.target.server}/${this.target.serial}`;
  }

  /**
   * Checks points against the screen as this process last saw it; when that refuses them,
   * reads the rotation from the device and checks again, so only a point off the real
   * screen is refused.
   */
  private async checkPoints(points: [number, number, [string, string]?][]): Promise<void> {
    const check = (size: ScreenSize) => points.forEach(([x, y, names]) => checkPoint(size, x, y, names));
    try {
      check(rotatedSize(this.size, this.shared.rotations.get(this.slot)));
    } catch (error) {
      // Only a whole, non-negative point can be on a screen turned since: ask the device then.
      if (!points.every(([x, y]) => Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0)) throw error;
      check(await this.screenSize());
    }
  }

  async tap(x: number, y: number, options: TapOptions = {}): Promise<UiElement | null> {
    await this.checkPoints([[x, y]]);
    // Tap first: the element is named from what was just seen, never from a dump made now.
    const seen = options.identify ? this.shared.trees.fresh(this.slot, Date.now()) : null;
    await this.input(`input tap ${x} ${y}`);
    return seen ? elementAt(seen, x, y) : null;
  }

  async swipe(x1: number, y1: number, x2: number, y2: number, durationMs: number): Promise<void> {
    await this.checkPoints([
      [x1, y1, ['x1', 'y1']],
      [x2, y2, ['x2', 'y2']],
    ]);
    checkDuration(durationMs);
    await this.input(`input swipe ${x1} ${y1} ${x2} ${y2} ${durationMs}`, this.options.commandTimeoutMs + durationMs);
  }

  async typeText(text: string): Promise<void> {
    checkText(text);
    if (!needsUnicodeIme(text)) return this.typeSteps(inputSteps(text));
    const steps = inputSteps(text, { encode: encodeForUnicodeIme });
    await ensureSettingsApp(this.target, this.options.commandTimeoutMs, (file) => this.pushAndInstall(file, SETTINGS_APP));
    await withUnicodeIme(this.target, this.options.commandTimeoutMs, () => this.typeSteps(steps));
  }

  /**
   * One `input` call per step, each with a time limit that grows with its length. A step that
   * fails ends the typing: nothing is sent again (it may have gone in), nor is the rest.
   */
  private async typeSteps(steps: InputStep[]): Promise<void> {
    const total = steps.reduce((sum, step) => sum + step.chars, 0);
    let typed = 0;
    for (const step of steps) {
      try {
        if (step.kind === 'text') await this.input(['input', 'text', step.text], this.options.commandTimeoutMs + this.options.textMsPerChar * step.chars);
        else await this.input(`input keyevent ${step.keycode}`);
      } catch (error) {
        if (steps.length === 1 || !(error instanceof DeviceHostFaultError)) throw error;
        throw new DeviceHostFaultError(
          `${error.message} Typing stopped: ${typed} of ${total} characters were typed; the next ${step.chars} may or may not have gone in, and the rest was not sent.`,
          { cause: error },
        );
      }
      typed += step.chars;
    }
  }

  async pressKey(key: string): Promise<void> {
    // By number: a build that predates the key ignores it rather than failing on its name.
    await this.input(`input keyevent ${parseAndroidKey(key).code}`);
  }

  private async requireInstalled(pkg: string): Promise<void> {
    checkPackage(pkg);
    if (!/^package:/m.test(await this.run(`pm path ${pkg}`))) throw new AppNotInstalledError(pkg);
  }

  async openApp(pkg: string, options: { activity?: string } = {}): Promise<void> {
    if (options.activity !== undefined) checkActivity(options.activity);
    await this.requireInstalled(pkg);
    this.shared.trees.spend(this.slot);
    if (options.activity !== undefined) {
      const failure = amStartFailure(await this.run(amStartCommand(`${pkg}/${options.activity}`)));
      if (failure) throw new ValidationError([{ path: 'activity', message: `cannot be started: ${failure.kind === 'not_exported' ? 'the app has not exported it (android:exported="false": only the app itself can start it)' : failure.reason}` }]);
      return;
    }
    // As a launcher icon does: the app's launcher activity with the launcher's intent, which
    // brings a running app back as it was. monkey only where `cmd` cannot resolve it.
    const component = resolvedComponent(await this.run(resolveLauncherCommand(pkg)), pkg);
    if (component !== null) {
      const failure = amStartFailure(await this.run(amStartCommand(component, { launcher: true })));
      if (failure) throw new ValidationError([{ path: 'package', message: `${pkg} cannot be opened: ${failure.reason}` }]);
      return;
    }
    const output = await this.run(monkeyLaunchCommand(pkg));
    if (!monkeyLaunched(output)) throw new ValidationError([{ path: 'package', message: `${pkg} has no launcher activity to open (monkey: ${output.trim().split('\n').pop()?.slice(0, 200) ?? 'no answer'})` }]);
  }

  async closeApp(pkg: string): Promise<void> {
    await this.requireInstalled(pkg);
    this.shared.trees.spend(this.slot);
    await this.run(`am force-stop ${pkg}`);
  }

  /**
   * Third-party apps with their version codes from `pm list packages -3 --show-versioncode`
   * (Android 9+; older builds: the plain list, codes from dumpsys). Labels and version names of
   * APKs the service installed come from their manifests (apk_labels); other apps' version
   * names from `dumpsys package packages`, filtered on the phone so only two lines a package
   * cross the wire (the whole dump is megabytes on a phone with many apps).
   */
  async listApps(): Promise<InstalledApp[]> {
    let listed = parsePackageCodes(await this.run('pm list packages -3 --show-versioncode'));
    if (listed.length === 0) listed = parsePackageList(await this.run('pm list packages -3')).map((pkg) => ({ package: pkg, version_code: null }));
    if (listed.length === 0) return [];
    const known = await this.labels.lookup(listed.map((p) => p.package));
    const needDump = listed.some((p) => p.version_code === null || !known.has(`${p.package}@${p.version_code}`));
    const dumped = needDump ? parsePackageVersions(await this.run("dumpsys package packages | grep -E '^  Package \\[|versionCode=|versionName='")) : new Map<string, PackageVersion>();
    return listed
      .map(({ package: pkg, version_code }) => {
        const code = version_code ?? dumped.get(pkg)?.version_code ?? 0;
        const mine = known.get(`${pkg}@${code}`);
        return { package: pkg, label: mine?.label ?? pkg, version_name: mine?.version_name ?? dumped.get(pkg)?.version_name ?? '' };
      })
      .sort((a, b) => a.label.localeCompare(b.label) || a.package.localeCompare(b.package));
  }

  async installApk(source: ApkSource): Promise<ApkInfo> {
    return withApkFile(source, async (file) => {
      const info = await readApkManifest(file);
      await this.pushAndInstall(file, info.package);
      await this.labels.remember(info);
      return info;
    });
  }

  /** Copies the APK to a private file on the phone, installs it, and removes the copy. */
  private async pushAndInstall(file: string, pkg: string): Promise<void> {
    const remote = `/data/local/tmp/svc-${randomBytes(6).toString('hex')}.apk`;
    try {
      await pushFile(this.target, createReadStream(file), remote, this.options.installTimeoutMs);
      // As Android Studio installs: replace (-r), allow test-only builds (-t), grant runtime permissions (-g).
      let output = await this.run(`pm install -r -t -g ${remote}`, this.options.installTimeoutMs);
      // Android 5 and older have no runtime permissions, and no -g.
      if (/Unknown option:? -g/i.test(output)) output = await this.run(`pm install -r -t ${remote}`, this.options.installTimeoutMs);
      if (!/^Success/m.test(output)) {
        const reason = /Failure \[([^\]]+)\]/.exec(output)?.[1] ?? (output.trim().split('\n').pop() || 'no answer');
        if (/INSTALL_PARSE_FAILED|INVALID_APK/.test(reason)) throw new InvalidApkError(`the device could not read it (${reason})`);
        throw new ApkInstallFailedError(pkg, reason);
      }
    } finally {
      await this.run(`rm -f ${remote}`).catch(() => undefined);
    }
  }

  async currentApp(): Promise<CurrentApp | null> {
    // Android 10+: per display, cross-checked; older builds print the focus under `windows`.
    return (
      currentAppFromDisplays(await this.run('dumpsys window displays')) ??
      currentAppFromWindows(await this.run('dumpsys window windows')) ??
      currentAppFromActivities(await this.run('dumpsys activity activities'))
    );
  }

  /** The size in the display's current rotation (read from the device: `dumpsys display`). */
  async screenSize(): Promise<ScreenSize> {
    const rotation = rotationFromDisplayDump(await this.run('dumpsys display'));
    if (rotation !== null) this.shared.rotations.set(this.slot, rotation);
    return rotatedSize(this.size, this.shared.rotations.get(this.slot));
  }
}
