// Typing text that `input text` cannot (é, ü, CJK, emoji), as Appium does: through the Unicode
// IME of the Appium Settings app (npm `io.appium.settings`, maintained by the Appium project,
// which ships the APK inside the package: nothing is downloaded at run time). While that IME is
// the phone's input method, what `input text` types is read as modified UTF-7 (RFC 3501) and
// committed decoded. The app is installed on demand (`pm install -r -t -g`), again when the
// phone has an older version; the phone's own input method is set back after each call.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { imapEncode } from 'emailjs-utf7';
import { readApkManifest } from '../apk/manifest.js';
import { DeviceHostFaultError } from '../errors.js';
import type { ApkInfo } from '../types.js';
import { type AdbTarget, shellText } from './commands.js';

export const SETTINGS_APP = 'io.appium.settings';
export const UNICODE_IME = `${SETTINGS_APP}/.UnicodeIME`;

/** The APK inside the installed npm package. */
export function settingsApkPath(): string {
  return join(dirname(createRequire(import.meta.url).resolve(`${SETTINGS_APP}/package.json`)), 'apks', 'settings_apk-debug.apk');
}

let shipped: Promise<ApkInfo> | undefined;
export function shippedSettingsApk(): Promise<ApkInfo> {
  shipped ??= readApkManifest(settingsApkPath());
  return shipped;
}

/** `pm list packages --show-versioncode PKG` → that package's version code, or null when it is not installed. */
export function installedVersionCode(output: string, pkg: string): number | null {
  const line = output.split(/\r?\n/).find((l) => l.trim().startsWith(`package:${pkg} `) || l.trim() === `package:${pkg}`);
  if (!line) return null;
  const m = /versionCode:(\d+)/.exec(line);
  return m ? Number(m[1]) : 0;
}

export const encodeForUnicodeIme = imapEncode;

/** Installs the helper app unless the phone has it at the shipped version or newer. */
export async function ensureSettingsApp(target: AdbTarget, ms: number, install: (file: string) => Promise<void>): Promise<void> {
  const apk = await shippedSettingsApk();
  const have = installedVersionCode(await shellText(target, ['pm', 'list', 'packages', '--show-versioncode', SETTINGS_APP], ms), SETTINGS_APP);
  if (have === null || have < apk.version_code) await install(settingsApkPath());
}

/** Runs `work` with the Unicode IME as the phone's input method, then sets the phone's own back. */
export async function withUnicodeIme<T>(target: AdbTarget, ms: number, work: () => Promise<T>): Promise<T> {
  const previous = (await shellText(target, 'settings get secure default_input_method', ms)).trim();
  await shellText(target, ['ime', 'enable', UNICODE_IME], ms);
  const selected = await shellText(target, ['ime', 'set', UNICODE_IME], ms);
  if (!/selected/.test(selected)) throw new DeviceHostFaultError(`${target.serial} did not switch to the Unicode keyboard needed for this text: ${selected.trim().slice(0, 200)}`);
  try {
    return await work();
  } finally {
    // Never set: the phone picks its default again once the setting is gone.
    const back = /^[\w.]+\/[\w.$]+$/.test(previous) && previous !== UNICODE_IME ? ['ime', 'set', previous] : ['settings', 'delete', 'secure', 'default_input_method'];
    await shellText(target, back, ms).catch(() => undefined);
  }
}
