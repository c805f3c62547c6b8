// What the ADB host changes on a phone while a cloud device holds it, and gives back at the
// end. A phone's screen turns off after its timeout and locks: screenshots go black and taps
// hit the lock screen. So at boot the screen is kept on while plugged in (`svc power stayon
// true`, the setting global/stay_on_while_plugged_in), woken, the lock screen dismissed
// (`wm dismiss-keyguard`, Android 6+; a PIN or pattern cannot be dismissed this way), and
// animations turned off (fewer "could not get idle state" dumps, as Appium and uiautomator2
// recommend). The phone's own values are read first and kept with the placement; stopping
// the device puts them back. Each step is one shell round trip.
import { type AdbTarget, shellText } from './commands.js';

export const BOUND_SETTINGS = ['stay_on_while_plugged_in', 'window_animation_scale', 'transition_animation_scale', 'animator_duration_scale'] as const;
const ANIMATIONS = BOUND_SETTINGS.slice(1);

/** Setting name → the phone's own value; null when it was never set (Android's default applies). */
export type SavedSettings = Record<string, string | null>;

/** Only numbers go back into a shell line (these settings hold nothing else). */
const NUMBER = /^-?\d+(\.\d+)?$/;

export async function readBoundSettings(target: AdbTarget, ms: number): Promise<SavedSettings> {
  const out = await shellText(target, BOUND_SETTINGS.map((name) => `settings get global ${name}`).join('; '), ms);
  const lines = out.split(/\r?\n/).map((l) => l.trim());
  return Object.fromEntries(BOUND_SETTINGS.map((name, i) => [name, lines[i] === undefined || lines[i] === 'null' || !NUMBER.test(lines[i]) ? null : lines[i]]));
}

export async function applyBoundSettings(target: AdbTarget, ms: number): Promise<void> {
  await shellText(target, ['svc power stayon true', ...ANIMATIONS.map((name) => `settings put global ${name} 0`)].join('; '), ms);
}

/** Dismisses an insecure lock screen; older builds without the command answer an error, which changes nothing. */
export async function dismissKeyguard(target: AdbTarget, ms: number): Promise<void> {
  await shellText(target, 'wm dismiss-keyguard', ms);
}

export async function restoreBoundSettings(target: AdbTarget, saved: SavedSettings, ms: number): Promise<void> {
  const steps = BOUND_SETTINGS.map((name) => {
    const value = saved[name];
    return typeof value === 'string' && NUMBER.test(value) ? `settings put global ${name} ${value}` : `settings delete global ${name}`;
  });
  await shellText(target, steps.join('; '), ms);
}

export function parseSavedSettings(json: string | null): SavedSettings | null {
  if (json === null) return null;
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' ? (value as SavedSettings) : null;
  } catch {
    return null;
  }
}
