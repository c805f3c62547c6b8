// The fake phone's input methods (`ime list|enable|set`) and the Appium Settings app's
// Unicode IME: while it is the default input method, what `input text` types is read as
// modified UTF-7 (RFC 3501, as Appium sends it) and committed decoded, so `&AOk-` types "é".
// The IME exists only once the io.appium.settings APK is installed.
import { imapDecode } from 'emailjs-utf7';
import { type CommandResult, failed, type FakeAndroidDevice, ok } from './device.js';

export const STOCK_IME = 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME';
const UNICODE_IME = 'io.appium.settings/.UnicodeIME';
const DEFAULT_IME = 'secure/default_input_method';
const ENABLED = 'secure/enabled_input_methods';

function available(device: FakeAndroidDevice): string[] {
  return [STOCK_IME, ...(device.installed.some((a) => a.package === 'io.appium.settings') ? [UNICODE_IME, 'io.appium.settings/.AppiumIME'] : [])];
}

function enabled(device: FakeAndroidDevice): string[] {
  return (device.settings.get(ENABLED) ?? STOCK_IME).split(':').filter((id) => available(device).includes(id));
}

export function currentIme(device: FakeAndroidDevice): string {
  return device.settings.get(DEFAULT_IME) ?? STOCK_IME;
}

/** What `input text` commits: the text itself, or its UTF-7 decoding under the Unicode IME. */
export function committedText(device: FakeAndroidDevice, typed: string): string {
  return currentIme(device) === UNICODE_IME ? imapDecode(typed) : typed;
}

export function ime(device: FakeAndroidDevice, args: string[]): CommandResult {
  const [verb, id] = args;
  if (verb === 'list') return ok((args.includes('-a') ? available(device) : enabled(device)).map((i) => `${i}\n`).join(''));
  if (!id) return failed('Error: no input method id given\n', 255);
  if (!available(device).includes(id)) return failed(`Unknown input method ${id} cannot be ${verb === 'set' ? 'selected' : 'enabled'} for user #0\n`, 255);
  if (verb === 'enable') {
    const was = enabled(device);
    device.settings.set(ENABLED, [...new Set([...was, id])].join(':'));
    return ok(`Input method ${id}: ${was.includes(id) ? 'already enabled' : 'now enabled'} for user #0\n`);
  }
  if (verb === 'set') {
    if (!enabled(device).includes(id)) return failed(`Unknown input method ${id} cannot be selected for user #0\n`, 255);
    device.settings.set(DEFAULT_IME, id);
    return ok(`Input method ${id} selected for user #0\n`);
  }
  return failed(`Error: unknown command '${verb}'\n`, 255);
}
