// The ADB servers of ADB_SERVERS and the devices on them that ADB_DEVICES lets us use.
// One adbkit client per server; adbkit opens a connection per command, so nothing is held.
import { type AdbDeviceSelector, type AdbServerAddress, formatAdbServer } from '../../../../config.js';
import { DeviceHostFaultError } from '../errors.js';
import type { SlotClaim } from '../placements.js';
import { type AdbClient, adbkit } from './adbkit.js';
import { describeAdbError, withTimeout } from './commands.js';

export class AdbServers {
  private readonly clients = new Map<string, AdbClient>();

  constructor(
    servers: AdbServerAddress[],
    private readonly selectors: AdbDeviceSelector[],
    private readonly timeoutMs: number,
  ) {
    for (const server of servers) {
      // When a server refuses the connection adbkit runs `<bin> -P <port> start-server`. The
      // service must never start (or kill) an ADB server itself: it may be another machine's
      // address, and the operator owns the server. `false` makes that attempt fail at once.
      this.clients.set(formatAdbServer(server), adbkit().Adb.createClient({ host: server.host, port: server.port, bin: 'false' }));
    }
  }

  client(server: string): AdbClient {
    const client = this.clients.get(server);
    if (!client) throw new DeviceHostFaultError(`The ADB server ${server} is no longer in ADB_SERVERS.`);
    return client;
  }

  private allowed(server: string, serial: string): boolean {
    if (this.selectors.length === 0) return true;
    return this.selectors.some((s) => s.serial === serial && (s.server === undefined || formatAdbServer(s.server) === server));
  }

  /**
   * Every usable device (state `device`, allowed by ADB_DEVICES) on every server that
   * answers. A server that does not answer is skipped; when none answers, that is a fault.
   */
  async available(): Promise<SlotClaim[]> {
    const results = await Promise.allSettled(
      [...this.clients].map(async ([server, client]) => {
        const devices: { id: string; type: string }[] = await withTimeout(Promise.resolve(client.listDevices()), this.timeoutMs, `Listing the devices of ${server}`);
        return devices.filter((d) => d.type === 'device' && this.allowed(server, d.id)).map((d) => ({ server, serial: d.id }));
      }),
    );
    const failures = results.flatMap((r, i) => (r.status === 'rejected' ? [describeAdbError(r.reason, [...this.clients.keys()][i]).message] : []));
    if (failures.length === results.length) throw new DeviceHostFaultError(failures.join(' '));
    return results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  }
}

/** `adb connect host:port` on this server: brings a network device it forgot back onto its list. */
export async function reconnect(client: AdbClient, host: string, port: number, ms: number): Promise<void> {
  await withTimeout(Promise.resolve(client.connect(host, port)), ms, `Connecting ${host}:${port} again`);
}
