// A fake ADB server with devices, and an AdbHost pointed at it, for the adb host's tests.
import { AdbHost, type AdbHostOptions } from '../../../../../src/modules/devices/hosts/adb/adb-host.js';
import type { Db } from '../../../../../src/db/database.js';
import type { FakeDeviceOptions } from '../../../../helpers/fake-adb/device.js';
import { FakeAdbServer } from '../../../../helpers/fake-adb/server.js';
import type { HostTestDb } from './database.js';

export async function startFakeAdb(devices: FakeDeviceOptions[]): Promise<FakeAdbServer> {
  const server = await new FakeAdbServer().start();
  for (const device of devices) server.addDevice(device);
  return server;
}

export function adbHostFor(db: Db, servers: FakeAdbServer[], options: Partial<AdbHostOptions> = {}): AdbHost {
  return new AdbHost({
    db,
    servers: servers.map((s) => ({ host: '127.0.0.1', port: s.port })),
    devices: [],
    bootPollMs: 50,
    driver: { uiDumpBackoffMs: 10, commandTimeoutMs: 10_000 },
    ...options,
  });
}

/** A cloud device placed and booted on the fake server's (only free) phone, and its driver. */
export async function bootedAdb(t: HostTestDb, servers: FakeAdbServer[], options: Partial<AdbHostOptions> = {}) {
  const host = adbHostFor(t.db, servers, options);
  const id = await t.createDevice();
  await host.place(id);
  await host.boot(id);
  return { host, id, driver: await host.driver(id) };
}
