// The fake phone's `dumpsys`: display (viewports and rotation), window (per-display focus, as
// Android 10+ prints it), activity, package. With a second display (FakeBehaviour.secondDisplay:
// a cast or a presentation showing another app) its section comes first, as on phones where
// the external display was added last; with a system window focused (the notification shade
// pulled down) mCurrentFocus names no app.
import { buildView } from '../../../src/modules/devices/hosts/sim/view.js';
import { BUILT_IN_DISPLAY, type CommandResult, failed, type FakeAndroidDevice, NATURAL_SIZE, ok } from './device.js';
import { displaySize } from './rotation.js';

function activityRecord(device: FakeAndroidDevice): string {
  const view = buildView(device.world());
  const short = view.screen.activity.startsWith(`${view.package}.`) ? view.screen.activity.slice(view.package.length) : view.screen.activity;
  return `ActivityRecord{5a1c0e2 u0 ${view.package}/${short} t12}`;
}

function currentFocus(device: FakeAndroidDevice): string {
  const view = buildView(device.world());
  if (device.behaviour.systemWindowFocused) return 'Window{9b1f2e4 u0 NotificationShade}';
  return `Window{e7a5b20 u0 ${view.package}/${view.screen.activity}}`;
}

/** `dumpsys window displays` (Android 10+): each display with its own focus. */
function windowDisplays(device: FakeAndroidDevice): string {
  const second = device.behaviour.secondDisplay;
  const size = displaySize(device.behaviour.rotation, NATURAL_SIZE);
  return (
    'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n' +
    (second
      ? `  Display: mDisplayId=2 rootTasks=1\n    init=1920x1080 320dpi cur=1920x1080 app=1920x1080 rng=1080x1080-1920x1920\n    mCurrentFocus=null\n    mFocusedApp=ActivityRecord{71c5e5a u0 ${second.package}/${second.activity} t31}\n`
      : '') +
    `  Display: mDisplayId=0 (organized) rootTasks=4\n    init=${NATURAL_SIZE.width}x${NATURAL_SIZE.height} 420dpi cur=${size.width}x${size.height} app=${size.width}x${size.height}\n` +
    `    mCurrentFocus=${currentFocus(device)}\n    mFocusedApp=${activityRecord(device)}\n`
  );
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

function physical(device: FakeAndroidDevice): { id: string; on: boolean }[] {
  return device.behaviour.physicalDisplays ?? [{ id: BUILT_IN_DISPLAY, on: true }];
}

/** Whether `screencap [-d ID]` sees a lit display (without -d: the first physical one). */
export function screencapLit(device: FakeAndroidDevice, display: string | undefined): boolean {
  const all = physical(device);
  const picked = display === undefined ? all[0] : all.find((d) => d.id === display);
  return picked?.on === true;
}

/** `cmd display get-displays`: logical display 0, on whichever physical display is on. */
export function getDisplays(device: FakeAndroidDevice): string {
  const on = physical(device).find((d) => d.on);
  const size = displaySize(device.behaviour.rotation, NATURAL_SIZE);
  return `Displays:\nDisplay id 0: DisplayInfo{"Built-in Screen", displayId 0, displayGroupId 0, FLAG_SECURE, FLAG_TRUSTED, real ${size.width} x ${size.height}, rotation ${device.behaviour.rotation}, state ${on ? 'ON' : 'OFF'}, type INTERNAL, uniqueId "local:${on?.id ?? physical(device)[0].id}", app ${size.width} x ${size.height}, density 420}\n`;
}

export function dumpsys(device: FakeAndroidDevice, args: string[]): CommandResult {
  if (args[0] === 'SurfaceFlinger' && args[1] === '--display-id') {
    return ok(physical(device).map((d, i) => `Display ${d.id} (HWC display ${i}): port=${129 + i} pnpId=GGL displayName="${i === 0 ? 'Inner' : 'Outer'} display"\n`).join(''));
  }
  if (args[0] === 'display') return ok(dumpsysDisplay(device));
  if (args[0] === 'window') {
    if (args[1] === 'displays') return ok(windowDisplays(device));
    // `dumpsys window` (everything) and `dumpsys window windows`: the display sections, then the windows with the global focus.
    const windows = `WINDOW MANAGER WINDOWS (dumpsys window windows)\n  Window #0 Window{3f2a9c1 u0 StatusBar}:\n    mDisplayId=0\n\n  mCurrentFocus=${currentFocus(device)}\n  mFocusedApp=${activityRecord(device)}\n`;
    return ok(args[1] === 'windows' ? windows : `${windowDisplays(device)}\n${windows}`);
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
