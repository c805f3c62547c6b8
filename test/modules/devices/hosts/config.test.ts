// The device-host settings: DEVICE_HOST, SIM_BOOT_MS, ADB_SERVERS, ADB_DEVICES are checked at
// start-up with messages naming the setting; createDeviceHost builds the host they ask for.
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../../src/config.js';
import { createDeviceHost } from '../../../../src/modules/devices/hosts/index.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';

describe('device host settings', () => {
  test('defaults: the simulator, 300 ms boots, the local ADB server, every device', () => {
    expect(loadConfig({})).toMatchObject({ deviceHost: 'sim', simBootMs: 300, adbServers: [{ host: '127.0.0.1', port: 5037 }], adbDevices: [] });
  });

  test('servers and devices as written in the docs', () => {
    const config = loadConfig({
      DEVICE_HOST: 'ADB',
      SIM_BOOT_MS: '0',
      ADB_SERVERS: '127.0.0.1:5037, lab-2.internal:5037,[::1]:5038,adbhost',
      ADB_DEVICES: 'emulator-5554, localhost:5555 ,lab-2.internal:5037/R58M12ABCDE,[::1]:5038/192.168.1.20:5555',
    });
    expect(config.deviceHost).toBe('adb');
    expect(config.simBootMs).toBe(0);
    expect(config.adbServers).toEqual([
      { host: '127.0.0.1', port: 5037 },
      { host: 'lab-2.internal', port: 5037 },
      { host: '::1', port: 5038 },
      { host: 'adbhost', port: 5037 },
    ]);
    expect(config.adbDevices).toEqual([
      { serial: 'emulator-5554' },
      { serial: 'localhost:5555' },
      { serial: 'R58M12ABCDE', server: { host: 'lab-2.internal', port: 5037 } },
      { serial: '192.168.1.20:5555', server: { host: '::1', port: 5038 } },
    ]);
  });

  test.each([
    [{ DEVICE_HOST: 'docker' }, 'DEVICE_HOST', 'sim or adb'],
    [{ SIM_BOOT_MS: 'fast' }, 'SIM_BOOT_MS', 'whole number'],
    [{ SIM_BOOT_MS: '600001' }, 'SIM_BOOT_MS', 'between'],
    [{ ADB_SERVERS: 'localhost:99999' }, 'ADB_SERVERS', 'port'],
    [{ ADB_SERVERS: 'http://x:5037' }, 'ADB_SERVERS', 'host:port'],
    [{ ADB_SERVERS: 'a:1,,b:2' }, 'ADB_SERVERS', 'host:port'],
    [{ ADB_SERVERS: 'a:1,a:1' }, 'ADB_SERVERS', 'twice'],
    [{ ADB_DEVICES: 'other:5037/emulator-5554' }, 'ADB_DEVICES', 'not in ADB_SERVERS'],
    [{ ADB_DEVICES: 'a b' }, 'ADB_DEVICES', 'serial'],
    [{ ADB_DEVICES: 'x,x' }, 'ADB_DEVICES', 'twice'],
  ])('%j is refused', (env, setting, words) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid setting ${setting}: .*${words}`));
  });
});

describe('createDeviceHost', () => {
  test('builds the kind DEVICE_HOST names', async () => {
    const t: HostTestDb = await openHostTestDb();
    try {
      expect(createDeviceHost(loadConfig({}), { db: t.db }).kind).toBe('sim');
      expect(createDeviceHost(loadConfig({ DEVICE_HOST: 'adb' }), { db: t.db }).kind).toBe('adb');
    } finally {
      await t.close();
    }
  });
});
