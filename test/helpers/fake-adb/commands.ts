// The device commands the fake understands, answering as Android's do (the texts below are
// the real tools' messages): getprop, screencap, input, uiautomator, am, monkey, pm, wm,
// dumpsys, settings, cat, rm, echo.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readApkManifest } from '../../../src/modules/devices/hosts/apk/manifest.js';
import { KeyCodes } from '../../../src/modules/devices/hosts/adb/adbkit.js';
import { decodeInputText } from '../../../src/modules/devices/hosts/adb/input-text.js';
import { parseAndroidKey } from '../../../src/modules/devices/hosts/keys.js';
import { applyCloseApp, applyKey, applyOpenApp, applySwipe, applyTap, applyText } from '../../../src/modules/devices/hosts/sim/input.js';
import { screenForActivity } from '../../../src/modules/devices/hosts/sim/navigation.js';
import { buildView } from '../../../src/modules/devices/hosts/sim/view.js';
import type { CommandResult, FakeAndroidDevice } from './device.js';
import { NATURAL_SIZE } from './device.js';
import { clockwiseDegrees, displaySize, toNatural } from './rotation.js';
import { uiDumpXml } from './ui-xml.js';

const ok = (text = ''): CommandResult => ({ stdout: Buffer.from(text), exitCode: 0 });
const failed = (text: string, exitCode = 1): CommandResult => ({ stdout: Buffer.from(text), exitCode });

/** Key codes by number, for `input keyevent 4`. */
const KEY_NAMES = new Map(Object.entries(KeyCodes as unknown as Record<string, number>).map(([name, code]) => [code, name]));

const isSystem = (pkg: string) => pkg.startsWith('com.android.');

function input(device: FakeAndroidDevice, args: string[]): CommandResult {
  const [verb, ...rest] = args;
  // Coordinates arrive in the rotated frame; the simulated screen is laid out in the natural one.
  const natural = (x: number, y: number) => toNatural(device.behaviour.rotation, NATURAL_SIZE, x, y);
  if (device.behaviour.injectEventsDenied) {
    return failed(
      `Exception occurred while executing '${verb}':\njava.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.\n\tat com.android.server.input.InputManagerService.injectInputEventToTarget(InputManagerService.java:1011)\n`,
      255,
    );
  }
  const n = rest.map(Number);
  const world = device.world();
  switch (verb) {
    case 'tap':
      applyTap(world, ...natural(n[0], n[1]));
      return ok();
    case 'swipe':
      applySwipe(world, ...natural(n[0], n[1]), ...natural(n[2], n[3]));
      return ok();
    case 'text':
      // Like Android's `input text`, only the first argument is typed: bad quoting shows.
      applyText(world, decodeInputText(rest[0] ?? ''));
      return ok();
    case 'keyevent':
      for (const key of rest) applyKey(world, parseAndroidKey(/^\d+$/.test(key) ? (KEY_NAMES.get(Number(key)) ?? key) : key));
      return ok();
    default:
      return failed(`Error: Unknown command: ${verb}\n`);
  }
}

async function pmInstall(device: FakeAndroidDevice, file: string | undefined): Promise<CommandResult> {
  const bytes = file ? device.files.get(file) : undefined;
  if (!bytes) return failed(`Failure [INSTALL_FAILED_INVALID_URI: Don't allow file: URIs; ${file} not found]\n`);
  const dir = await mkdtemp(join(tmpdir(), 'fake-adb-pm-'));
  try {
    await writeFile(join(dir, 'base.apk'), bytes);
    const info = await readApkManifest(join(dir, 'base.apk'));
    device.installed = [...device.installed.filter((a) => a.package !== info.package), { ...info, source: 'apk' }];
    return ok('Success\n');
  } catch {
    return failed('Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse /data/app/vmdl.tmp/base.apk]\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function pm(device: FakeAndroidDevice, args: string[]): Promise<CommandResult> | CommandResult {
  const [verb, ...rest] = args;
  if (verb === 'path') {
    const app = device.installed.find((a) => a.package === rest[0]);
    return app ? ok(`package:/data/app/${app.package}-1/base.apk\n`) : failed('');
  }
  if (verb === 'list' && rest[0] === 'packages') {
    const thirdParty = rest.includes('-3');
    return ok(device.installed.filter((a) => !thirdParty || !isSystem(a.package)).map((a) => `package:${a.package}\n`).join(''));
  }
  if (verb === 'install') return pmInstall(device, rest.filter((a) => !a.startsWith('-')).pop());
  return failed(`Unknown command: ${verb}\n`);
}

function activityRecord(device: FakeAndroidDevice): string {
  const view = buildView(device.world());
  return `ActivityRecord{5a1c0e2 u0 ${view.package}/${view.screen.activity} t12}`;
}

/** `dumpsys display`: the parts adbutils and the driver read (the viewport's orientation and size). */
function dumpsysDisplay(device: FakeAndroidDevice): string {
  const rotation = device.behaviour.rotation;
  const size = displaySize(rotation, NATURAL_SIZE);
  const frame = `Rect(0, 0 - ${size.width}, ${size.height})`;
  return (
    'DISPLAY MANAGER (dumpsys display)\n  mOnlyCode=false\n  mSafeMode=false\n' +
    `  mViewports=[DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=0, uniqueId='local:4619827259835644672', physicalPort=0, orientation=${rotation}, logicalFrame=${frame}, physicalFrame=${frame}, deviceWidth=${size.width}, deviceHeight=${size.height}}]\n` +
    `Display Devices: size=1\n  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:4619827259835644672", ${NATURAL_SIZE.width} x ${NATURAL_SIZE.height}, modeId 1, defaultModeId 1, density 420, state ON}\n` +
    `Logical Displays: size=1\n  Display 0:\n    mDisplayId=0\n    mBaseDisplayInfo=DisplayInfo{"Built-in Screen", displayId 0, real ${NATURAL_SIZE.width} x ${NATURAL_SIZE.height}, rotation ${rotation}, state ON}\n`
  );
}

function dumpsys(device: FakeAndroidDevice, args: string[]): CommandResult {
  const view = buildView(device.world());
  if (args[0] === 'display') return ok(dumpsysDisplay(device));
  if (args[0] === 'window') {
    return ok(`WINDOW MANAGER WINDOWS (dumpsys window windows)\n  Window #0 Window{3f2a9c1 u0 StatusBar}:\n    mDisplayId=0\n\n  mCurrentFocus=Window{e7a5b20 u0 ${view.package}/${view.screen.activity}}\n  mFocusedApp=${activityRecord(device)}\n`);
  }
  if (args[0] === 'activity') return ok(`ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n  mResumedActivity: ${activityRecord(device)}\n`);
  if (args[0] === 'package') {
    return ok(
      'Packages:\n' +
        device.installed.map((a) => `  Package [${a.package}] (4d2c1a7):\n    userId=10${a.version_code % 1000}\n    versionCode=${a.version_code} minSdk=24 targetSdk=34\n    versionName=${a.version_name}\n`).join(''),
    );
  }
  return failed(`Can't find service: ${args[0]}\n`);
}

/** `am start [-W] [-S] [-a ACTION] [-c CATEGORY] [-f FLAGS] -n pkg/activity`, answered as Android 10+ words it. */
function amStart(device: FakeAndroidDevice, rest: string[]): CommandResult {
  const option = (name: string) => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : undefined);
  const component = option('-n') ?? '';
  const [pkg, rawActivity = ''] = component.split('/');
  const activity = rawActivity.startsWith('.') ? `${pkg}${rawActivity}` : rawActivity;
  const app = device.installed.find((a) => a.package === pkg);
  const described = app ? device.catalogue.appFor(app) : undefined;
  const screen = described && activity ? screenForActivity(described, activity) : undefined;
  const starting = `Starting: Intent { ${option('-a') ? `act=${option('-a')} ` : ''}${option('-c') ? `cat=[${option('-c')}] ` : ''}cmp=${component} }\n`;
  if (!app || !described || !screen) return failed(`${starting}Error type 3\nError: Activity class {${pkg}/${activity}} does not exist.\n`);
  if (device.notExported.has(`${pkg}/${activity}`)) {
    return failed(
      `${starting}Exception occurred while executing 'start':\njava.lang.SecurityException: Permission Denial: starting Intent { flg=0x10000000 cmp=${component} } from null (pid=6263, uid=2000) not exported from uid 10154\n\tat com.android.server.wm.ActivityTaskSupervisor.checkStartAnyActivityPermission(ActivityTaskSupervisor.java:1073)\n`,
      255,
    );
  }
  // The launcher's intent (MAIN + LAUNCHER, NEW_TASK | RESET_TASK_IF_NEEDED) for the app's
  // launcher activity brings its task back as it was; any other start shows that activity.
  const launcherIntent = option('-a') === 'android.intent.action.MAIN' && option('-c') === 'android.intent.category.LAUNCHER' && screen === described.screens[0].id;
  applyOpenApp(device.world(), pkg, launcherIntent ? undefined : screen);
  return ok(`${starting}Status: ok\nLaunchState: COLD\nActivity: ${pkg}/${rawActivity}\nTotalTime: 212\nWaitTime: 215\nComplete\n`);
}

function am(device: FakeAndroidDevice, args: string[]): CommandResult {
  const [verb, ...rest] = args;
  if (verb === 'force-stop') {
    applyCloseApp(device.world(), rest[0]);
    return ok();
  }
  if (verb === 'start' || verb === 'start-activity') return amStart(device, rest);
  return failed(`Error: unknown command '${verb}'\n`);
}

const UI_AUTOMATION_TAKEN =
  'Exception in thread "main" java.lang.IllegalStateException: UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@3f2a9c1already registered!\n' +
  '\tat android.os.Parcel.createExceptionOrNull(Parcel.java:3017)\n\tat android.app.UiAutomationConnection.connect(UiAutomationConnection.java:110)\n';

/** `uiautomator dump FILE`: one client at a time; it holds the connection while it waits for the screen to settle. */
async function uiautomator(device: FakeAndroidDevice, args: string[]): Promise<CommandResult> {
  if (args[0] !== 'dump') return failed(`Unknown command: ${args[0]}\n`);
  if (device.uiAutomationBusy) return failed(UI_AUTOMATION_TAKEN);
  device.uiAutomationBusy = true;
  try {
    await new Promise((resolve) => setTimeout(resolve, device.behaviour.uiDumpMs));
  } finally {
    device.uiAutomationBusy = false;
  }
  if (device.uiDumpIdleFailures > 0) {
    device.uiDumpIdleFailures -= 1;
    return ok('ERROR: could not get idle state.\n');
  }
  if (device.behaviour.uiDumpNullRoots > 0) {
    device.behaviour.uiDumpNullRoots -= 1;
    return ok('ERROR: null root node returned by UiTestAutomationBridge.\n');
  }
  const file = args[1] ?? '/sdcard/window_dump.xml';
  device.files.set(file, Buffer.from(uiDumpXml(device)));
  return ok(`UI hierchary dumped to: ${file}\n`);
}

/** `monkey -p PKG -c CATEGORY [--pct-syskeys N] 1`: one launch of the app, as a launcher icon would. */
function monkey(device: FakeAndroidDevice, args: string[]): CommandResult {
  const pkg = args[args.indexOf('-p') + 1];
  const echo = args.map((a) => `  bash arg: ${a}\n`).join('');
  const syskeys = args.includes('--pct-syskeys') ? Number(args[args.indexOf('--pct-syskeys') + 1]) : 2;
  if (device.behaviour.noHardwareKeys && syskeys !== 0) return failed(`${echo}** SYS_KEYS has no physical keys but with factor 2.0%.\n`, 251);
  if (!device.installed.some((a) => a.package === pkg)) return failed(`${echo}** No activities found to run, monkey aborted.\n`, 252);
  applyOpenApp(device.world(), pkg);
  return ok(`${echo}Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n`);
}

/** `cmd package resolve-activity --brief [-a ACTION] [-c CATEGORY] PKG`: the app's launcher activity, in its short form. */
function resolveActivity(device: FakeAndroidDevice, args: string[]): CommandResult {
  const words = args.filter((a, i) => !a.startsWith('-') && !['-a', '-c', '-f', '--user'].includes(args[i - 1]));
  const pkg = words[words.length - 1];
  const app = device.installed.find((a) => a.package === pkg);
  if (!app) return ok('No activity found\n');
  const activity = device.catalogue.appFor(app).screens[0].activity;
  const short = activity.startsWith(`${pkg}.`) ? activity.slice(pkg.length) : activity;
  return ok(`priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n${pkg}/${short}\n`);
}

const SETTINGS_NAMESPACES = ['system', 'secure', 'global'];

/** `settings get|put|delete NAMESPACE NAME [VALUE]`, on the device's own table. */
function settings(device: FakeAndroidDevice, args: string[]): CommandResult {
  const [verb, namespace, name, value] = args;
  if (!SETTINGS_NAMESPACES.includes(namespace ?? '') || !name) return failed('Invalid namespace or name\n', 255);
  const key = `${namespace}/${name}`;
  if (verb === 'get') return ok(`${device.settings.get(key) ?? 'null'}\n`);
  if (verb === 'put') {
    if (value === undefined) return failed('Value not specified\n', 255);
    device.settings.set(key, value);
    return ok();
  }
  if (verb === 'delete') return ok(`Deleted ${device.settings.delete(key) ? 1 : 0} rows\n`);
  return failed(`Invalid command: ${verb}\n`, 255);
}

export async function runCommand(device: FakeAndroidDevice, argv: string[]): Promise<CommandResult> {
  const [name, ...args] = argv;
  switch (name) {
    case 'echo':
      return ok(`${args.join(' ')}\n`);
    case 'getprop': {
      const props = device.properties();
      if (args[0] !== undefined) return ok(`${props[args[0]] ?? ''}\n`);
      return ok(Object.entries(props).map(([k, v]) => `[${k}]: [${v}]\n`).join(''));
    }
    case 'screencap': {
      if (!args.includes('-p')) return failed('screencap: only -p (PNG) is simulated\n');
      const png = (await device.renderer.render(buildView(device.world()))).data;
      const degrees = clockwiseDegrees(device.behaviour.rotation);
      return { stdout: degrees === 0 ? png : await sharp(png).rotate(degrees).png({ compressionLevel: 1 }).toBuffer(), exitCode: 0 };
    }
    case 'input':
      return input(device, args);
    case 'uiautomator':
      return uiautomator(device, args);
    case 'cat': {
      const content = device.files.get(args[0] ?? '');
      return content ? { stdout: content, exitCode: 0 } : failed(`cat: ${args[0]}: No such file or directory\n`);
    }
    case 'rm':
      for (const file of args.filter((a) => !a.startsWith('-'))) device.files.delete(file);
      return ok();
    case 'wm':
      return args[0] === 'size' ? ok(`Physical size: ${NATURAL_SIZE.width}x${NATURAL_SIZE.height}\n`) : args[0] === 'density' ? ok('Physical density: 420\n') : failed('Unknown command\n');
    case 'am':
      return am(device, args);
    case 'monkey':
      return monkey(device, args);
    case 'cmd':
      if (!device.behaviour.hasCmd) return failed('/system/bin/sh: cmd: inaccessible or not found\n', 127);
      if (args[0] === 'package' && args[1] === 'resolve-activity') return resolveActivity(device, args.slice(2));
      return failed(`cmd: Can't find service: ${args[0]}\n`, 255);
    case 'pm':
      return pm(device, args);
    case 'dumpsys':
      return dumpsys(device, args);
    case 'settings':
      return settings(device, args);
    default:
      return failed(`/system/bin/sh: ${name}: inaccessible or not found\n`, 127);
  }
}
