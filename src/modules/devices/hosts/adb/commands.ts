// Running device commands through adbkit, with a time limit and errors a caller can act on:
// an unreachable ADB server or a vanished device becomes DeviceHostFaultError naming it. A
// network device (`host:port`: redroid, wireless debugging) that the server forgot (it
// restarted, or the device dropped off) is connected again (`adb connect`) and the command
// sent once more: only when the first try failed before the command reached the device (the
// transport could not be opened), so nothing is ever done twice.
import type { Duplex } from 'node:stream';
import { DeviceHostFaultError } from '../errors.js';
import { adbkit, type DeviceClient } from './adbkit.js';
import { messageOf } from '../../../../lib/error-message.js';

export interface AdbTarget {
  device: DeviceClient;
  /** `host:port` of the ADB server, for messages. */
  server: string;
  serial: string;
  /** Network devices: asks the server to connect the device again (`adb connect host:port`). */
  reconnect?: () => Promise<void>;
}

/** `host:port` or `[v6]:port`: a device the ADB server reaches over the network, which `adb connect` can bring back. */
export function isNetworkSerial(serial: string): boolean {
  return /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(serial);
}

/** The failure came before the device got the command: the server did not answer, or did not know the device. */
export function failedBeforeDevice(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  const message = messageOf(error);
  return code === 'ECONNREFUSED' || /Command failed: false/.test(message) || /device '.*' not found|device offline|no devices\/emulators found/.test(message);
}

/**
 * Opens a device service (the command starts when it resolves). When that failed before the
 * device got anything and the device can be connected again, connects it and tries once more.
 */
async function openService<T>(target: AdbTarget, ms: number, what: string, open: () => PromiseLike<T>): Promise<T> {
  try {
    return await withTimeout(Promise.resolve(open()), ms, what);
  } catch (error) {
    if (!target.reconnect || !failedBeforeDevice(error)) throw error;
    try {
      await target.reconnect();
    } catch {
      throw error;
    }
    return await withTimeout(Promise.resolve(open()), ms, what);
  }
}

export function describeAdbError(error: unknown, server: string, serial?: string): DeviceHostFaultError {
  if (error instanceof DeviceHostFaultError) return error;
  const message = messageOf(error);
  const code = (error as { code?: string } | null)?.code;
  // adbkit tries `<bin> start-server` when the server refuses; our bin is `false` (see servers.ts).
  if (code === 'ECONNREFUSED' || /Command failed: false/.test(message)) {
    return new DeviceHostFaultError(`The ADB server at ${server} is not reachable (connection refused). Start it (adb start-server) or check ADB_SERVERS.`, { cause: error });
  }
  if (code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT' || code === 'ENOTFOUND') {
    return new DeviceHostFaultError(`The ADB server at ${server} is not reachable (${code}).`, { cause: error });
  }
  if (serial && /not found|offline|unauthorized|no devices/i.test(message)) {
    return new DeviceHostFaultError(`The device ${serial} is not available on the ADB server at ${server}: ${message}.`, { cause: error });
  }
  return new DeviceHostFaultError(`ADB failed${serial ? ` on ${serial}` : ''} (${server}): ${message}`, { cause: error });
}

/** Waits for `work`, failing with a host fault after `ms`; `onTimeout` releases what it holds. */
export async function withTimeout<T>(work: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new DeviceHostFaultError(`${what} took longer than ${ms} ms.`));
    }, ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function readStream(stream: Duplex, ms: number, what: string): Promise<Buffer> {
  return withTimeout(Promise.resolve(adbkit().Adb.util.readAll(stream)), ms, what, () => stream.destroy());
}

/**
 * Runs a shell command and answers its output. An array is quoted word by word by adbkit
 * (single quotes, safe for the device's sh); a string is passed to the shell as it is, so
 * only ever build one from checked values.
 */
export async function shell(target: AdbTarget, command: string | string[], ms: number): Promise<Buffer> {
  const what = `The command "${Array.isArray(command) ? command[0] : command.split(' ')[0]}" on ${target.serial}`;
  try {
    const stream = await openService<Duplex>(target, ms, what, () => target.device.shell(command));
    return await readStream(stream, ms, what);
  } catch (error) {
    throw describeAdbError(error, target.server, target.serial);
  }
}

export async function shellText(target: AdbTarget, command: string | string[], ms: number): Promise<string> {
  return (await shell(target, command, ms)).toString('utf8');
}

/**
 * `screencap -p` through adbkit, which also undoes the CRLF translation of old devices; with
 * `display` (a physical display id, only on Android 10+ phones with several displays, whose
 * shell is binary-clean) `screencap -p -d <id>`.
 */
export async function screencap(target: AdbTarget, ms: number, display: string | null = null): Promise<Buffer> {
  if (display !== null && /^\d+$/.test(display)) return shell(target, `screencap -p -d ${display}`, ms);
  try {
    const stream = await openService<Duplex>(target, ms, `A screenshot of ${target.serial}`, () => target.device.screencap());
    return await readStream(stream, ms, `A screenshot of ${target.serial}`);
  } catch (error) {
    throw describeAdbError(error, target.server, target.serial);
  }
}

/** Copies a local file to the device over the sync protocol. */
export async function pushFile(target: AdbTarget, contents: NodeJS.ReadableStream, remotePath: string, ms: number): Promise<void> {
  try {
    const transfer = await openService<Awaited<ReturnType<DeviceClient['push']>>>(target, ms, `Copying the APK to ${target.serial}`, () => target.device.push(contents as never, remotePath, 0o644));
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        transfer.on('end', () => resolve());
        transfer.on('error', reject);
      }),
      ms,
      `Copying the APK to ${target.serial}`,
      () => transfer.cancel(),
    );
  } catch (error) {
    throw describeAdbError(error, target.server, target.serial);
  }
}
