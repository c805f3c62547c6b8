// The adb host's pool: placing binds a free serial (on any server) to the cloud device in the
// database, so every process agrees; offline and unauthorized devices and devices outside
// ADB_DEVICES are never taken; none free answers "no device capacity". Booting waits for
// sys.boot_completed. Everything runs against the fake ADB server.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FakeAdbServer } from '../../../helpers/fake-adb/server.js';
import { adbHostFor, startFakeAdb } from './helpers/adb.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';

let t: HostTestDb;
const servers: FakeAdbServer[] = [];
beforeAll(async () => {
  t = await openHostTestDb();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await t.close();
});

async function fake(...devices: Parameters<typeof startFakeAdb>[0]) {
  const server = await startFakeAdb(devices);
  servers.push(server);
  return server;
}

describe('the serial pool', () => {
  test('each device gets its own serial across two servers; offline and unauthorized ones are skipped; then no capacity', async () => {
    const a = await fake({ serial: 'emulator-5554' }, { serial: 'R58M123', state: 'offline' });
    const b = await fake({ serial: 'localhost:5555' }, { serial: 'ZY22', state: 'unauthorized' });
    const host = adbHostFor(t.db, [a, b]);
    const [d1, d2, d3] = [await t.createDevice(), await t.createDevice(), await t.createDevice()];
    const p1 = await host.place(d1);
    const p2 = await host.place(d2);
    expect(new Set([p1.slot, p2.slot])).toEqual(new Set([`127.0.0.1:${a.port}/emulator-5554`, `127.0.0.1:${b.port}/localhost:5555`]));
    expect(await host.place(d1)).toEqual(p1);
    await expect(host.place(d3)).rejects.toMatchObject({ status: 503, code: 'no_device_capacity', message: expect.stringContaining('no device capacity') });
    // Stopping frees the serial for the next device.
    await host.shutdown(d1);
    expect(await host.place(d3)).toMatchObject({ slot: p1.slot, status: 'placed' });
  });

  test('ADB_DEVICES limits the pool, by serial or by server/serial', async () => {
    const a = await fake({ serial: 'emulator-5554' }, { serial: 'emulator-5556' });
    const b = await fake({ serial: 'emulator-5554' });
    const host = adbHostFor(t.db, [a, b], { devices: [{ serial: 'emulator-5554', server: { host: '127.0.0.1', port: b.port } }] });
    const id = await t.createDevice();
    expect((await host.place(id)).slot).toBe(`127.0.0.1:${b.port}/emulator-5554`);
    await expect(host.place(await t.createDevice())).rejects.toMatchObject({ code: 'no_device_capacity' });
  });

  test('two processes placing at once never share a serial (the binding is unique in the database)', async () => {
    const server = await fake({ serial: 'p1' }, { serial: 'p2' }, { serial: 'p3' });
    const other = t.connect();
    const hosts = [adbHostFor(t.db, [server]), adbHostFor(other, [server])];
    const ids = await Promise.all(Array.from({ length: 5 }, () => t.createDevice()));
    const results = await Promise.allSettled(ids.map((id, i) => hosts[i % 2].place(id)));
    const placed = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.slot] : []));
    expect(placed.sort()).toEqual(['p1', 'p2', 'p3'].map((s) => `127.0.0.1:${server.port}/${s}`));
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['no_device_capacity', 'no_device_capacity']);
  });

  test('an unreachable ADB server is a host fault naming it (and no ADB server is started)', async () => {
    const server = await fake({ serial: 'gone' });
    const port = server.port;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const host = adbHostFor(t.db, [server]);
    await expect(host.place(await t.createDevice())).rejects.toMatchObject({ status: 502, code: 'device_host_fault', message: expect.stringContaining(`127.0.0.1:${port} is not reachable`) });
    // adbkit would have run `adb start-server` on that port; the port is still closed.
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('connect', () => (socket.destroy(), resolve('connected')));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});

describe('boot and shutdown', () => {
  test('boot waits for sys.boot_completed, wakes the screen, records its size; the driver works only once ready', async () => {
    const server = await fake({ serial: 'slow-boot', bootMs: 400 });
    const host = adbHostFor(t.db, [server]);
    const id = await t.createDevice();
    await expect(host.driver(id)).rejects.toMatchObject({ code: 'not_found' });
    await host.place(id);
    await expect(host.driver(id)).rejects.toMatchObject({ status: 409, code: 'device_not_ready' });
    const started = performance.now();
    await host.boot(id);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    const device = server.devices.get('slow-boot')!;
    expect(device.commands.filter((c) => c === 'getprop sys.boot_completed').length).toBeGreaterThan(1);
    expect(device.commands).toContain('input keyevent KEYCODE_WAKEUP');
    const driver = await host.driver(id);
    expect(await driver.screenSize()).toEqual({ width: 1080, height: 2400, density: 420 });
    await host.shutdown(id);
    expect(await host.placement(id)).toBeNull();
    await expect(host.driver(id)).rejects.toMatchObject({ code: 'not_found' });
  });

  test('a boot that never completes is a host fault after the boot time-out', async () => {
    const server = await fake({ serial: 'stuck', bootMs: 60_000 });
    const host = adbHostFor(t.db, [server], { bootTimeoutMs: 300 });
    const id = await t.createDevice();
    await host.place(id);
    await expect(host.boot(id)).rejects.toMatchObject({ code: 'device_host_fault', message: expect.stringContaining('did not finish booting') });
  });

  test('a device that disappears from its server is a host fault on the next action', async () => {
    const server = await fake({ serial: 'unplugged' });
    const host = adbHostFor(t.db, [server]);
    const id = await t.createDevice();
    await host.place(id);
    await host.boot(id);
    const driver = await host.driver(id);
    server.devices.delete('unplugged');
    await expect(driver.tap(10, 10)).rejects.toMatchObject({ code: 'device_host_fault', message: expect.stringContaining('unplugged') });
  });
});
