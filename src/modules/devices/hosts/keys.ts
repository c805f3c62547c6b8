// Android key names. The list comes from adbkit's KeyCodes table (Android's KeyEvent
// constants), so both hosts accept exactly the names a real device knows.
import { ValidationError } from '../../../core/errors.js';
import { KeyCodes } from './adb/adbkit.js';

const KEY_CODES: Readonly<Record<string, number>> = KeyCodes as unknown as Record<string, number>;

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
