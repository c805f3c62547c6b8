// UI dumps on a real phone: Android lets one UI automation client connect at a time, so the
// driver takes one dump per phone at a time, across processes (a lock in the database every
// process shares), and retries what a phone answers while a window is in transition.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DeviceDriver } from '../../../../src/modules/devices/hosts/types.js';
import type { FakeAndroidDevice } from '../../../helpers/fake-adb/device.js';
import type { FakeAdbServer } from '../../../helpers/fake-adb/server.js';
import { adbHostFor, bootedAdb, startFakeAdb } from './helpers/adb.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';

let t: HostTestDb;
let server: FakeAdbServer;
let phone: FakeAndroidDevice;
let d: DeviceDriver;
let deviceId: number;

beforeAll(async () => {
  t = await openHostTestDb();
  server = await startFakeAdb([{ serial: 'emulator-5554' }]);
  phone = server.devices.get('emulator-5554')!;
  const booted = await bootedAdb(t, [server]);
  d = booted.driver;
  deviceId = booted.id;
  await d.openApp('com.example.shop');
});
afterAll(async () => {
  await server.close();
  await t.close();
});

const dumps = (from: number) => phone.commands.slice(from).filter((c) => c.includes('uiautomator dump')).length;

describe('retries', () => {
  test('"null root node returned by UiTestAutomationBridge" is retried like the idle-state error', async () => {
    phone.behaviour.uiDumpNullRoots = 2;
    const before = phone.commands.length;
    expect((await d.uiTree()).some((e) => e.text === 'Checkout')).toBe(true);
    expect(dumps(before)).toBe(3);
  });
});

describe('one dump per phone at a time', () => {
  test('dumps asked at once by two processes (two database connections) all succeed, one after another', async () => {
    phone.behaviour.uiDumpMs = 150;
    try {
      // Another process: its own connection, its own host and driver for the same device.
      const otherHost = adbHostFor(t.connect(), [server], { driver: { uiDumpAttempts: 1, uiDumpBackoffMs: 10, commandTimeoutMs: 10_000 } });
      const other = await otherHost.driver(deviceId);
      const here = await adbHostFor(t.db, [server], { driver: { uiDumpAttempts: 1, uiDumpBackoffMs: 10, commandTimeoutMs: 10_000 } }).driver(deviceId);
      const trees = await Promise.all([here.uiTree(), other.uiTree(), here.uiTree(), other.uiTree()]);
      for (const tree of trees) expect(tree.some((e) => e.text === 'Checkout')).toBe(true);
    } finally {
      phone.behaviour.uiDumpMs = 5;
    }
  });

  test('another UI automation client on the phone (not ours) is waited out by retrying', async () => {
    phone.uiAutomationBusy = true;
    setTimeout(() => (phone.uiAutomationBusy = false), 25);
    expect((await d.uiTree()).length).toBeGreaterThan(0);
  });
});
