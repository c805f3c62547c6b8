// The proxy setting and reverses of a device on an ADB server (DeviceProxyControl): what a
// cloud run's proxy relay applies at launch and undoes at the end (decisions.md §6, the relay
// recipe). `adb reverse` and `--list` are adbkit's; adbkit has no `--remove`, so that one
// speaks the host protocol itself (`reverse:killforward:tcp:P`, answered OKAY then OKAY or FAIL).
import { DeviceHostFaultError } from '../errors.js';
import type { DeviceProxyControl, DeviceReverse } from '../types.js';
import { type AdbTarget, describeAdbError, shellText, withTimeout } from './commands.js';
import { messageOf } from '../../../../lib/error-message.js';

const portOk = (port: number) => Number.isInteger(port) && port >= 1 && port <= 65_535;

function checkPort(port: number): string {
  if (!portOk(port)) throw new DeviceHostFaultError(`${port} is not a TCP port.`);
  return `tcp:${port}`;
}

/** host:port (IPv6 in brackets) or `:0`: what Android's global proxy setting takes. */
const HTTP_PROXY_VALUE = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])?:\d{1,5}$/;

const request = (text: string) => Buffer.from(`${Buffer.byteLength(text).toString(16).padStart(4, '0')}${text}`);

export class AdbProxyControl implements DeviceProxyControl {
  constructor(
    private readonly target: AdbTarget,
    private readonly timeoutMs: number,
  ) {}

  private async adb<T>(what: string, work: () => PromiseLike<T>): Promise<T> {
    try {
      return await withTimeout(Promise.resolve(work()), this.timeoutMs, `${what} on ${this.target.serial}`);
    } catch (error) {
      throw describeAdbError(error, this.target.server, this.target.serial);
    }
  }

  async reverse(port: number): Promise<void> {
    const socket = checkPort(port);
    await this.adb(`adb reverse ${socket} ${socket}`, () => this.target.device.reverse(socket, socket));
  }

  async removeReverse(port: number): Promise<boolean> {
    const socket = checkPort(port);
    return this.adb(`adb reverse --remove ${socket}`, async () => {
      const connection = await this.target.device.transport();
      try {
        connection.write(request(`reverse:killforward:${socket}`));
        if ((await connection.parser.readAscii(4)) !== 'OKAY') await connection.parser.readError();
        if ((await connection.parser.readAscii(4)) === 'OKAY') return true;
        // adbd's answer for a reverse that is not there: "listener 'tcp:P' not found".
        const message = await connection.parser.readError().then(
          () => '',
          (error: unknown) => messageOf(error),
        );
        if (/not found/.test(message)) return false;
        throw new DeviceHostFaultError(message);
      } finally {
        connection.end();
      }
    });
  }

  async reverses(): Promise<DeviceReverse[]> {
    const list = await this.adb<DeviceReverse[]>('adb reverse --list', () => this.target.device.listReverses());
    return list.map((r) => ({ remote: r.remote, local: r.local }));
  }

  async setHttpProxy(value: string): Promise<void> {
    if (!HTTP_PROXY_VALUE.test(value)) throw new DeviceHostFaultError(`"${value}" is not a host:port for the device's proxy setting.`);
    // As words: adbkit quotes each one for the device's shell.
    const out = await shellText(this.target, ['settings', 'put', 'global', 'http_proxy', value], this.timeoutMs);
    if (out.trim() !== '') throw new DeviceHostFaultError(`settings put global http_proxy on ${this.target.serial} answered "${out.trim().slice(0, 200)}".`);
  }

  async httpProxy(): Promise<string | null> {
    const value = (await shellText(this.target, 'settings get global http_proxy', this.timeoutMs)).trim();
    return value === '' || value === 'null' ? null : value;
  }
}
