// The device commands the fake understands, answering as Android's do (the texts below are
// the real tools' messages): getprop, screencap, input, wm, dumpsys, settings, svc, cat, rm,
// echo here; uiautomator (ui-commands.ts); am, monkey, cmd package and pm (app-commands.ts).
import sharp from 'sharp';
import { decodeInputText } from '../../../src/modules/devices/hosts/adb/input-text.js';
import { KEY_NAMES, parseAndroidKey } from '../../../src/modules/devices/hosts/keys.js';
import { applyKey, applySwipe, applyTap, applyText } from '../../../src/modules/devices/hosts/sim/input.js';
import { buildView } from '../../../src/modules/devices/hosts/sim/view.js';
import { am, monkey, pm, resolveActivity } from './app-commands.js';
import { type CommandResult, failed, type FakeAndroidDevice, NATURAL_SIZE, ok } from './device.js';
import { clockwiseDegrees, displaySize, toNatural } from './rotation.js';
import { dumpsys, getDisplays, screencapLit } from './dumpsys.js';
import { committedText, ime } from './ime.js';
import { uiautomator } from './ui-commands.js';


function input(device: FakeAndroidDevice, args: string[]): CommandResult | Promise<CommandResult> {
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
  const keys = verb === 'keyevent' ? rest.map((key) => parseAndroidKey(/^\d+$/.test(key) ? (KEY_NAMES.get(Number(key)) ?? key) : key)) : [];
  // A screen that is off drops the event (WAKEUP and POWER turn it on); a locked one shows the lock screen, which takes it.
  if (!['tap', 'swipe', 'text', 'keyevent'].includes(verb ?? '')) return failed(`Error: Unknown command: ${verb}\n`);
  if (!device.power.input(keys.some((k) => k.name === 'WAKEUP' || k.name === 'POWER'))) return ok();
  switch (verb) {
    case 'tap':
      applyTap(world, ...natural(n[0], n[1]));
      break;
    case 'swipe':
      applySwipe(world, ...natural(n[0], n[1]), ...natural(n[2], n[3]), n[4] ?? 300);
      break;
    case 'text': {
      // Like Android's `input text`, only the first argument is typed: bad quoting shows.
      const typed = decodeInputText(rest[0] ?? '');
      applyText(world, committedText(device, typed));
      const stall = device.behaviour.stallInputText;
      const extra = stall?.after === 0 ? stall.ms : 0;
      if (stall) device.behaviour.stallInputText = stall.after === 0 ? null : { ...stall, after: stall.after - 1 };
      return new Promise((resolve) => setTimeout(() => resolve(ok()), device.behaviour.inputTextMsPerChar * typed.length + extra));
    }
    default:
      for (const key of keys) applyKey(world, key);
  }
  return ok();
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

/** toybox `grep [-E] [-v] [-m N] PATTERN` on what the command before `|` wrote. */
function grep(args: string[], stdin: Buffer | undefined): CommandResult {
  const invert = args.includes('-v');
  const max = args.includes('-m') ? Number(args[args.indexOf('-m') + 1]) : Infinity;
  const pattern = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '-m')[0] ?? '';
  const regex = new RegExp(pattern);
  const lines = (stdin ?? Buffer.alloc(0)).toString('utf8').split('\n').filter((l) => l !== '' && regex.test(l) !== invert).slice(0, max);
  return lines.length > 0 ? ok(lines.map((l) => `${l}\n`).join('')) : failed('', 1);
}

export async function runCommand(device: FakeAndroidDevice, argv: string[], stdin?: Buffer): Promise<CommandResult> {
  const [name, ...args] = argv;
  device.power.tick();
  switch (name) {
    case 'grep':
      return grep(args, stdin);
    case 'svc':
      return device.power.svc(args);
    case 'ime':
      return ime(device, args);
    case 'echo':
      return ok(`${args.join(' ')}\n`);
    case 'getprop': {
      const props = device.properties();
      if (args[0] !== undefined) return ok(`${props[args[0]] ?? ''}\n`);
      return ok(Object.entries(props).map(([k, v]) => `[${k}]: [${v}]\n`).join(''));
    }
    case 'screencap': {
      if (!args.includes('-p')) return failed('screencap: only -p (PNG) is simulated\n');
      const screen = displaySize(device.behaviour.rotation, NATURAL_SIZE);
      if (device.behaviour.screencapMs > 0) await new Promise((resolve) => setTimeout(resolve, device.behaviour.screencapMs));
      const display = args.includes('-d') ? args[args.indexOf('-d') + 1] : undefined;
      const cover = screencapLit(device, display) ? await device.power.cover(screen.width, screen.height) : await device.power.black(screen.width, screen.height);
      if (cover) return { stdout: cover, exitCode: 0 };
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
      if (args[0] === 'dismiss-keyguard') return device.power.dismissKeyguard();
      return args[0] === 'size' ? ok(`Physical size: ${NATURAL_SIZE.width}x${NATURAL_SIZE.height}\n`) : args[0] === 'density' ? ok('Physical density: 420\n') : failed('Unknown command\n');
    case 'am':
      return am(device, args);
    case 'monkey':
      return monkey(device, args);
    case 'cmd':
      if (!device.behaviour.hasCmd) return failed('/system/bin/sh: cmd: inaccessible or not found\n', 127);
      if (args[0] === 'package' && args[1] === 'resolve-activity') return resolveActivity(device, args.slice(2));
      if (args[0] === 'display' && args[1] === 'get-displays') return ok(getDisplays(device));
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
