// `uiautomator dump`, retried on what a phone answers while its screen is busy: "ERROR: could
// not get idle state." (still animating), "ERROR: null root node returned by
// UiTestAutomationBridge." (a window in transition, as mobile-mcp also retries), and
// "UiAutomationService … already registered" (another UI automation client is connected:
// Android allows one at a time). Our own dumps of one phone never meet that way: each attempt
// runs under `exclusive`, which the host makes a lock every process shares. The dump goes to
// a file of its own, removed afterwards.
import { randomBytes } from 'node:crypto';
import { DeviceHostFaultError } from '../errors.js';
import type { UiElement } from '../types.js';
import { type AdbTarget, shellText } from './commands.js';
import { rotationFromUiDump } from './display.js';
import { parseUiDump } from './ui-xml.js';

const RETRIED = /could not get idle state|null root node returned by UiTestAutomationBridge|already registered/i;

export interface UiDumpOptions {
  attempts: number;
  /** Wait before the next attempt grows by this much each time. */
  backoffMs: number;
  timeoutMs: number;
  /** Runs one attempt as the phone's only UI dump (a lock shared by every process); default: as it is. */
  exclusive?: <T>(work: () => Promise<T>) => Promise<T>;
}

export interface UiDump {
  elements: UiElement[];
  /** The display's rotation when the dump was taken (0–3), when the dump says. */
  rotation: number | null;
}

export async function dumpUi(target: AdbTarget, options: UiDumpOptions): Promise<UiDump> {
  let last = '';
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    const file = `/data/local/tmp/svc-ui-${randomBytes(6).toString('hex')}.xml`;
    const exclusive = options.exclusive ?? ((work) => work());
    const output = await exclusive(() => shellText(target, `uiautomator dump ${file} && cat ${file}; rm -f ${file}`, options.timeoutMs));
    const start = output.indexOf('<?xml') >= 0 ? output.indexOf('<?xml') : output.indexOf('<hierarchy');
    if (start >= 0) return { elements: parseUiDump(output.slice(start)), rotation: rotationFromUiDump(output.slice(start, start + 400)) };
    last = output.trim();
    if (!RETRIED.test(last)) break;
    if (attempt < options.attempts) await new Promise((resolve) => setTimeout(resolve, options.backoffMs * attempt));
  }
  throw new DeviceHostFaultError(`The UI dump of ${target.serial} failed: ${last.slice(0, 300) || 'no output'}`);
}
