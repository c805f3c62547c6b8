// Network devices (`host:port`: redroid, wireless debugging, `adb connect`): an ADB server that
// restarts, or a device that drops off, forgets them until `adb connect`. The host connects
// them again and carries on, instead of answering 502 while the device stays `ready`; a boot
// rides out such blips until its deadline. Against the fake ADB server.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FakeAdbServer } from '../../../helpers/fake-adb/server.js';
import { adbHostFor, bootedAdb, startFakeAdb } from './helpers/adb.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';
import { find } from './helpers/sim.js';

const SERIAL = '127.0.0.1:5555';
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

describe('a bound network device', () => {
  test('is connected again after the ADB server restarts, and the action goes through once', async () => {
    const server = await fake({ serial: SERIAL });
    const { driver } = await bootedAdb(t, [server]);
    await driver.openApp('com.example.shop');
    await server.restart();
    expect(server.devices.has(SERIAL)).toBe(false);
    const row = await find(driver, 'row_beans');
    expect(server.devices.has(SERIAL)).toBe(true);
    const before = server.devices.get(SERIAL)!.commands.length;
    await driver.tap(Math.floor((row.bounds.left + row.bounds.right) / 2), Math.floor((row.bounds.top + row.bounds.bottom) / 2));
    expect(server.devices.get(SERIAL)!.commands.slice(before).filter((c) => c.startsWith('input tap'))).toHaveLength(1);
    expect((await find(driver, 'title')).text).toBe('Espresso beans');
    expect(server.services.filter((s) => s.service === `host:connect:127.0.0.1:5555`).length).toBe(1);
  });

  test('is connected again when it dropped off the server (the screenshot still comes)', async () => {
    const server = await fake({ serial: '127.0.0.1:5556' });
    const { driver } = await bootedAdb(t, [server]);
    server.dropNetworkDevice('127.0.0.1:5556');
    expect((await driver.screenshot()).width).toBe(1080);
  });

  test('a device that is really gone stays a host fault naming it', async () => {
    const server = await fake({ serial: '127.0.0.1:5557' });
    const { driver } = await bootedAdb(t, [server]);
    server.devices.delete('127.0.0.1:5557');
    (server as unknown as { network: Map<string, unknown> }).network.delete('127.0.0.1:5557');
    await expect(driver.pressKey('BACK')).rejects.toMatchObject({ code: 'device_host_fault', message: expect.stringContaining('127.0.0.1:5557') });
  });
});

describe('boot', () => {
  test('rides out an ADB server restart (refused connections, the device forgotten) until its deadline', async () => {
    const server = await fake({ serial: '127.0.0.1:5558', bootMs: 500 });
    const host = adbHostFor(t.db, [server], { bootTimeoutMs: 5000 });
    const id = await t.createDevice();
    await host.place(id);
    const booting = host.boot(id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await server.restart(200);
    await booting;
    expect(await host.placement(id)).toMatchObject({ status: 'ready' });
  });
});
