// Sending `input` commands and reading what they answer. `input` prints nothing when the
// event went in; when it did not, it prints why and the event is lost, so its answer must be
// read. Xiaomi phones (MIUI, HyperOS) refuse every injected event unless "USB debugging
// (Security settings)" is on: `SecurityException: Injecting … requires INJECT_EVENTS
// permission`. That is a host fault whose message says what to turn on; it also fails a
// boot (its wake-up key is an injected event), so the device's hosted_state_message says it.
import { DeviceHostFaultError } from '../errors.js';
import { type AdbTarget, shellText } from './commands.js';

export function injectEventsMessage(serial: string): string {
  return (
    `${serial} refuses injected input (INJECT_EVENTS): taps, swipes, keys and text do nothing. ` +
    'On a Xiaomi phone (MIUI, HyperOS) turn on "USB debugging (Security settings)" in Developer options ' +
    '(it needs a signed-in Mi account and a SIM card), then start the device again.'
  );
}

/** The fault `input`'s answer shows, or null when the event went in (no answer, or a linker warning). */
export function inputFault(output: string, serial: string): DeviceHostFaultError | null {
  if (/INJECT_EVENTS/.test(output)) return new DeviceHostFaultError(injectEventsMessage(serial));
  const line = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => /^Error:|Exception\b/.test(l));
  return line ? new DeviceHostFaultError(`input on ${serial} failed: ${line.slice(0, 300)}`) : null;
}

/** Runs `input …` (a string only from checked values; words are quoted by adbkit) and fails on what it answers. */
export async function runInput(target: AdbTarget, command: string | string[], timeoutMs: number): Promise<void> {
  const fault = inputFault(await shellText(target, command, timeoutMs), target.serial);
  if (fault) throw fault;
}
