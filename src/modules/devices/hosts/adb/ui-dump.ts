// `uiautomator dump`, retried when the device is still animating ("ERROR: could not get idle
// state." is the usual answer then). The dump goes to a file of its own, so two processes
// dumping one device at once do not read each other's, and the file is removed afterwards.
import { randomBytes } from 'node:crypto';
import { DeviceHostFaultError } from '../errors.js';
import type { UiElement } from '../types.js';
import { type AdbTarget, shellText } from './commands.js';
import { rotationFromUiDump } from './display.js';
import { parseUiDump } from './ui-xml.js';

const IDLE_ERROR = /could not get idle state/i;

export interface UiDumpOptions {
  attempts: number;
  /** Wait before the next attempt grows by this much each time. */
  backoffMs: number;
  timeoutMs: number;
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
    const output = await shellText(target, `uiautomator dump ${file} && cat ${file}; rm -f ${file}`, options.timeoutMs);
    const start = output.indexOf('<?xml') >= 0 ? output.indexOf('<?xml') : output.indexOf('<hierarchy');
    if (start >= 0) return { elements: parseUiDump(output.slice(start)), rotation: rotationFromUiDump(output.slice(start, start + 400)) };
    last = output.trim();
    if (!IDLE_ERROR.test(last)) break;
    if (attempt < options.attempts) await new Promise((resolve) => setTimeout(resolve, options.backoffMs * attempt));
  }
  throw new DeviceHostFaultError(`The UI dump of ${target.serial} failed: ${last.slice(0, 300) || 'no output'}`);
}
