// A fake ADB server on 127.0.0.1 speaking the real ADB host protocol, so that both adbkit
// (the production driver) and Debian's `adb` command-line client work against it unchanged.
// Host services: version, devices, devices-l, features, get-state, kill, transport switches
// (transport:, transport-any, transport-id:, tport:…). Device services: shell:, exec:, sync:,
// reverse: (reverse.ts).
import { createServer, type Server, type Socket } from 'node:net';
import { isNetworkSerial } from '../../../src/modules/devices/hosts/adb/commands.js';
import { FakeAndroidDevice, type FakeDeviceOptions } from './device.js';
import { serveReverse } from './reverse.js';
import { runShell } from './shell.js';
import { serveSync } from './sync.js';
import { fail, okay, SocketReader } from './wire.js';

/** What `host:version` answers: adb 1.0.41's server version (0x29). A client that sees another kills and restarts the server. */
export const FAKE_ADB_VERSION = 41;

export interface ServiceLog {
  service: string;
  serial?: string;
}

export class FakeAdbServer {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  readonly devices = new Map<string, FakeAndroidDevice>();
  /**
   * Network devices (`host:port` serials, as `adb connect` adds them; redroid, wireless
   * debugging) that answer on the network. A server restart, or the device dropping off,
   * takes them off the list until `adb connect` (host:connect) adds them again; USB devices
   * come back on their own.
   */
  private readonly network = new Map<string, FakeAndroidDevice>();
  /** Every service requested, in order (host and device services). */
  readonly services: ServiceLog[] = [];
  port = 0;

  constructor() {
    this.server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
      void this.serve(socket).catch(() => socket.destroy());
    });
  }

  addDevice(options: FakeDeviceOptions): FakeAndroidDevice {
    const device = new FakeAndroidDevice(options);
    this.devices.set(device.serial, device);
    if (isNetworkSerial(device.serial)) this.network.set(device.serial, device);
    return device;
  }

  /** The ADB server restarts: every connection drops, the port refuses for `downMs`, and network devices are forgotten. */
  async restart(downMs = 0): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const serial of this.network.keys()) this.devices.delete(serial);
    if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  /** A network device drops off (Wi-Fi blip, the container restarted): the server forgets it until `adb connect`. */
  dropNetworkDevice(serial: string): void {
    if (this.network.has(serial)) this.devices.delete(serial);
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** `adb connect host:port`, answered in the server's words (always OKAY, then the outcome). */
  private connect(serial: string): string {
    if (this.devices.has(serial)) return `already connected to ${serial}`;
    const device = this.network.get(serial);
    if (!device) return `failed to connect to '${serial}': Connection refused`;
    this.devices.set(serial, device);
    return `connected to ${serial}`;
  }

  private transportId(serial: string): number {
    return [...this.devices.keys()].indexOf(serial) + 1;
  }

  private list(long: boolean): string {
    return [...this.devices.values()]
      .map((d) => (long ? `${d.serial.padEnd(22)} ${d.state} product:svc_fake model:${d.model.replace(/ /g, '_')} device:svc_fake transport_id:${this.transportId(d.serial)}\n` : `${d.serial}\t${d.state}\n`))
      .join('');
  }

  /** The device a transport request picks, or an error message as the real server words it. */
  private pick(selector: { serial?: string; any?: boolean; id?: number }): FakeAndroidDevice | string {
    let device: FakeAndroidDevice | undefined;
    if (selector.serial !== undefined) device = this.devices.get(selector.serial);
    else if (selector.id !== undefined) device = [...this.devices.values()][selector.id - 1];
    else {
      const all = [...this.devices.values()];
      if (all.length > 1) return 'more than one device/emulator';
      device = all[0];
    }
    if (!device) return selector.serial !== undefined ? `device '${selector.serial}' not found` : 'no devices/emulators found';
    if (device.state === 'offline') return 'device offline';
    if (device.state === 'unauthorized') return 'device unauthorized.\nThis adb server\'s $ADB_VENDOR_KEYS is not set';
    return device;
  }

  private async serve(socket: Socket): Promise<void> {
    const reader = new SocketReader(socket);
    let device: FakeAndroidDevice | undefined;
    for (;;) {
      const service = await reader.request();
      if (service === null) return;
      this.services.push({ service, serial: device?.serial });
      if (!device) {
        const result = this.host(socket, service);
        if (result === 'close') return void socket.end();
        if (result instanceof FakeAndroidDevice) device = result;
        continue;
      }
      await this.deviceService(device, socket, reader, service);
      return void socket.end();
    }
  }

  /** Answers a host service; a transport switch answers the device to keep talking to. */
  private host(socket: Socket, service: string): 'close' | FakeAndroidDevice {
    const serialScoped = /^host-serial:(.+):([a-z-]+)$/.exec(service);
    const name = serialScoped ? `host:${serialScoped[2]}` : service;
    const scope = serialScoped ? { serial: serialScoped[1] } : { any: true };
    if (name === 'host:version') return okay(socket, FAKE_ADB_VERSION.toString(16).padStart(4, '0')), 'close';
    if (name === 'host:devices') return okay(socket, this.list(false)), 'close';
    if (name === 'host:devices-l') return okay(socket, this.list(true)), 'close';
    if (name === 'host:kill') return okay(socket), 'close';
    if (service.startsWith('host:connect:')) return okay(socket, this.connect(service.slice('host:connect:'.length))), 'close';
    if (name === 'host:features' || name === 'host:get-state' || name === 'host:get-serialno') {
      const picked = this.pick(scope);
      if (typeof picked === 'string') return fail(socket, picked), 'close';
      const value = name === 'host:features' ? picked.features() : name === 'host:get-state' ? picked.state : picked.serial;
      return okay(socket, value), 'close';
    }
    const selector = this.transportSelector(service);
    if (selector) {
      if (selector === 'usb') return fail(socket, 'no devices/emulators found'), 'close';
      const picked = this.pick(selector);
      if (typeof picked === 'string') return fail(socket, picked), 'close';
      okay(socket);
      // The newer `tport` form also answers the transport id, 8 bytes little-endian.
      if (service.startsWith('host:tport:')) {
        const id = Buffer.alloc(8);
        id.writeBigUInt64LE(BigInt(this.transportId(picked.serial)));
        socket.write(id);
      }
      return picked;
    }
    return fail(socket, `unknown host service '${service}'`), 'close';
  }

  private transportSelector(service: string): { serial?: string; any?: boolean; id?: number } | 'usb' | undefined {
    if (['host:transport-any', 'host:tport:any', 'host:transport-local', 'host:tport:local'].includes(service)) return { any: true };
    if (service === 'host:transport-usb' || service === 'host:tport:usb') return 'usb';
    if (service.startsWith('host:transport-id:')) return { id: Number(service.slice('host:transport-id:'.length)) };
    if (service.startsWith('host:transport:')) return { serial: service.slice('host:transport:'.length) };
    if (service.startsWith('host:tport:serial:')) return { serial: service.slice('host:tport:serial:'.length) };
    return undefined;
  }

  private async deviceService(device: FakeAndroidDevice, socket: Socket, reader: SocketReader, service: string): Promise<void> {
    if (service.startsWith('shell:') || service.startsWith('exec:')) {
      const command = service.slice(service.indexOf(':') + 1);
      if (command.trim() === '') return fail(socket, 'interactive shells are not simulated');
      okay(socket);
      const result = await runShell(device, command);
      await new Promise<void>((resolve) => socket.write(result.stdout, () => resolve()));
      return;
    }
    if (service.startsWith('reverse:')) return serveReverse(device, socket, service);
    if (service === 'sync:') {
      okay(socket);
      return serveSync(device, socket, reader);
    }
    return fail(socket, `closed`);
  }
}
