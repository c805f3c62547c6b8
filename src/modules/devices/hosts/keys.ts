// Android key names: adbkit's KeyCodes table (Android's KeyEvent constants up to Android 10,
// code 288) and the keys Android added since (KeyEvent.java, codes 289–337: app keys for TVs,
// keyboard backlight, stylus buttons, RECENT_APPS, EMOJI_PICKER, SCREENSHOT, F13–F24, …), so
// both hosts accept exactly the names a current device knows. The adb driver sends the number
// (`input keyevent 318`), as Appium does: a build that predates a key ignores it instead of
// failing on a name it cannot parse.
import { ValidationError } from '../../../core/errors.js';
import { KeyCodes } from './adb/adbkit.js';

const SINCE_ANDROID_11: Readonly<Record<string, number>> = {
  ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`KEYCODE_VIDEO_APP_${i + 1}`, 289 + i])),
  ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`KEYCODE_FEATURED_APP_${i + 1}`, 297 + i])),
  ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`KEYCODE_DEMO_APP_${i + 1}`, 301 + i])),
  KEYCODE_KEYBOARD_BACKLIGHT_DOWN: 305,
  KEYCODE_KEYBOARD_BACKLIGHT_UP: 306,
  KEYCODE_KEYBOARD_BACKLIGHT_TOGGLE: 307,
  KEYCODE_STYLUS_BUTTON_PRIMARY: 308,
  KEYCODE_STYLUS_BUTTON_SECONDARY: 309,
  KEYCODE_STYLUS_BUTTON_TERTIARY: 310,
  KEYCODE_STYLUS_BUTTON_TAIL: 311,
  KEYCODE_RECENT_APPS: 312,
  ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`KEYCODE_MACRO_${i + 1}`, 313 + i])),
  KEYCODE_EMOJI_PICKER: 317,
  KEYCODE_SCREENSHOT: 318,
  KEYCODE_DICTATE: 319,
  KEYCODE_NEW: 320,
  KEYCODE_CLOSE: 321,
  KEYCODE_DO_NOT_DISTURB: 322,
  KEYCODE_PRINT: 323,
  KEYCODE_LOCK: 324,
  KEYCODE_FULLSCREEN: 325,
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`KEYCODE_F${13 + i}`, 326 + i])),
};

const KEY_CODES: Readonly<Record<string, number>> = { ...(KeyCodes as unknown as Record<string, number>), ...SINCE_ANDROID_11 };

/** Key names by code, for reading `input keyevent 4`. */
export const KEY_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(KEY_CODES).filter(([, code]) => typeof code === 'number').map(([name, code]) => [code, name]));

export interface AndroidKey {
  /** Without the prefix: `BACK`. */
  name: string;
  /** As `input keyevent` takes it: `KEYCODE_BACK`. */
  keycode: string;
  code: number;
}

/** `back`, `BACK` or `KEYCODE_BACK` → the key; anything else is a validation error. */
export function parseAndroidKey(input: string, path = 'key'): AndroidKey {
  const upper = input.trim().toUpperCase();
  const keycode = upper.startsWith('KEYCODE_') ? upper : `KEYCODE_${upper}`;
  const code = KEY_CODES[keycode];
  if (typeof code !== 'number' || !/^KEYCODE_[A-Z0-9_]+$/.test(keycode)) {
    throw new ValidationError([{ path, message: `is not an Android key name (for example BACK, HOME, ENTER, APP_SWITCH, DEL); got "${input}"` }]);
  }
  return { name: keycode.slice('KEYCODE_'.length), keycode, code };
}
