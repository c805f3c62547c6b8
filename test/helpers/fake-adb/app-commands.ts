// The fake phone's app commands, answering as Android's do: `pm` (path, list, install), `am`
// (start, force-stop), `monkey` and `cmd package resolve-activity`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ApkReader from '@devicefarmer/adbkit-apkreader';
import { readApkManifest } from '../../../src/modules/devices/hosts/apk/manifest.js';
import { applyCloseApp, applyOpenApp } from '../../../src/modules/devices/hosts/sim/input.js';
import { screenForActivity } from '../../../src/modules/devices/hosts/sim/navigation.js';
import { type CommandResult, failed, type FakeAndroidDevice, ok } from './device.js';

const isSystem = (pkg: string) => pkg.startsWith('com.android.');

/**
 * `pm install [-r] [-t] [-g] FILE`. Like Android: an APK marked android:testOnly (what Android
 * Studio's Run builds) needs `-t` (INSTALL_FAILED_TEST_ONLY), and an app already installed
 * needs `-r`. Runtime permissions are granted at install only with `-g`.
 */
async function pmInstall(device: FakeAndroidDevice, flags: string[], file: string | undefined): Promise<CommandResult> {
  const bytes = file ? device.files.get(file) : undefined;
  if (!bytes) return failed(`Failure [INSTALL_FAILED_INVALID_URI: Don't allow file: URIs; ${file} not found]\n`);
  const dir = await mkdtemp(join(tmpdir(), 'fake-adb-pm-'));
  try {
    await writeFile(join(dir, 'base.apk'), bytes);
    const info = await readApkManifest(join(dir, 'base.apk'));
    const manifest = await (await ApkReader.open(join(dir, 'base.apk'))).readManifest();
    if (manifest.application?.testOnly === true && !flags.includes('-t')) return failed('Failure [INSTALL_FAILED_TEST_ONLY: installPackageLI]\n');
    if (device.installed.some((a) => a.package === info.package) && !flags.includes('-r')) return failed(`Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install ${info.package} without first uninstalling.]\n`);
    device.installed = [...device.installed.filter((a) => a.package !== info.package), { ...info, source: 'apk' }];
    device.grantedAtInstall.set(info.package, flags.includes('-g'));
    return ok('Success\n');
  } catch {
    return failed('Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse /data/app/vmdl.tmp/base.apk]\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function pm(device: FakeAndroidDevice, args: string[]): Promise<CommandResult> | CommandResult {
  const [verb, ...rest] = args;
  if (verb === 'path') {
    const app = device.installed.find((a) => a.package === rest[0]);
    return app ? ok(`package:/data/app/${app.package}-1/base.apk\n`) : failed('');
  }
  if (verb === 'list' && rest[0] === 'packages') {
    // pm list packages [-3] [--show-versioncode] [FILTER]: FILTER matches part of the name.
    const thirdParty = rest.includes('-3');
    const codes = rest.includes('--show-versioncode');
    const filter = rest.slice(1).find((a) => !a.startsWith('-'));
    const listed = device.installed.filter((a) => (!thirdParty || !isSystem(a.package)) && (filter === undefined || a.package.includes(filter)));
    return ok(listed.map((a) => `package:${a.package}${codes ? ` versionCode:${a.version_code}` : ''}\n`).join(''));
  }
  if (verb === 'install') return pmInstall(device, rest.filter((a) => a.startsWith('-')), rest.filter((a) => !a.startsWith('-')).pop());
  return failed(`Unknown command: ${verb}\n`);
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

export function am(device: FakeAndroidDevice, args: string[]): CommandResult {
  const [verb, ...rest] = args;
  if (verb === 'force-stop') {
    applyCloseApp(device.world(), rest[0]);
    return ok();
  }
  if (verb === 'start' || verb === 'start-activity') return amStart(device, rest);
  return failed(`Error: unknown command '${verb}'\n`);
}

/** `monkey -p PKG -c CATEGORY [--pct-syskeys N] 1`: one launch of the app, as a launcher icon would. */
export function monkey(device: FakeAndroidDevice, args: string[]): CommandResult {
  const pkg = args[args.indexOf('-p') + 1];
  const echo = args.map((a) => `  bash arg: ${a}\n`).join('');
  const syskeys = args.includes('--pct-syskeys') ? Number(args[args.indexOf('--pct-syskeys') + 1]) : 2;
  if (device.behaviour.noHardwareKeys && syskeys !== 0) return failed(`${echo}** SYS_KEYS has no physical keys but with factor 2.0%.\n`, 251);
  if (!device.installed.some((a) => a.package === pkg)) return failed(`${echo}** No activities found to run, monkey aborted.\n`, 252);
  applyOpenApp(device.world(), pkg);
  return ok(`${echo}Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n`);
}

/** `cmd package resolve-activity --brief [-a ACTION] [-c CATEGORY] PKG`: the app's launcher activity, in its short form. */
export function resolveActivity(device: FakeAndroidDevice, args: string[]): CommandResult {
  const words = args.filter((a, i) => !a.startsWith('-') && !['-a', '-c', '-f', '--user'].includes(args[i - 1]));
  const pkg = words[words.length - 1];
  const app = device.installed.find((a) => a.package === pkg);
  if (!app) return ok('No activity found\n');
  const activity = device.catalogue.appFor(app).screens[0].activity;
  const short = activity.startsWith(`${pkg}.`) ? activity.slice(pkg.length) : activity;
  return ok(`priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n${pkg}/${short}\n`);
}

