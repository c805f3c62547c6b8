// Debian's `adb` command-line client against the fake ADB server: proof that the fake speaks
// the real host protocol, not only what adbkit happens to send. The client runs with a
// private HOME and no ADB_VENDOR_KEYS, so nothing touches this machine's own adb setup; the
// fake answers the client's own server version, so the client never kills or restarts it.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { themeFor } from '../../../../src/modules/devices/hosts/sim/render/palette.js';
import type { FakeAdbServer } from '../../../helpers/fake-adb/server.js';
import { startFakeAdb } from './helpers/adb.js';
import { decode, hex } from './helpers/pixels.js';

const run = promisify(execFile);
let server: FakeAdbServer;
let home: string;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startFakeAdb([{ serial: 'emulator-5554', model: 'Pixel Fake' }]);
  home = mkdtempSync(join(tmpdir(), 'svc-adb-home-'));
  env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

const adb = async (...args: string[]) => (await run('adb', ['-P', String(server.port), ...args], { env, timeout: 20_000 })).stdout;

test('adb devices lists the fake phone (with -H and -P)', async () => {
  const { stdout } = await run('adb', ['-H', '127.0.0.1', '-P', String(server.port), 'devices'], { env, timeout: 20_000 });
  expect(stdout).toBe('List of devices attached\nemulator-5554\tdevice\n\n');
  expect(await adb('devices', '-l')).toContain('model:Pixel_Fake');
});

test('adb shell getprop answers the phone’s property', async () => {
  expect(await adb('shell', 'getprop', 'ro.product.model')).toBe('Pixel Fake\n');
  expect(await adb('-s', 'emulator-5554', 'shell', 'getprop', 'sys.boot_completed')).toBe('1\n');
});

test('adb exec-out screencap -p > file gives a PNG of what the phone shows', async () => {
  await adb('shell', 'monkey', '-p', 'com.example.shop', '-c', 'android.intent.category.LAUNCHER', '1');
  const file = join(home, 'screen.png');
  await run('sh', ['-c', `adb -P ${server.port} exec-out screencap -p > "${file}"`], { env, timeout: 20_000 });
  const picture = await decode(readFileSync(file));
  expect(picture).toMatchObject({ width: 1080, height: 2400, format: 'png' });
  // The shop's toolbar, where the app description puts it.
  expect(hex(picture.pixel(20, 150))).toBe(themeFor('com.example.shop').primary);
});

test('adb reverse and the global proxy setting, as the relay recipe uses them, change the phone’s state', async () => {
  const phone = server.devices.get('emulator-5554')!;
  await adb('reverse', 'tcp:20555', 'tcp:20555');
  expect([...phone.reverses]).toEqual([['tcp:20555', 'tcp:20555']]);
  expect(await adb('reverse', '--list')).toMatch(/^\S+ tcp:20555 tcp:20555\n/);
  await adb('shell', 'settings', 'put', 'global', 'http_proxy', '127.0.0.1:20555');
  expect(await adb('shell', 'settings', 'get', 'global', 'http_proxy')).toBe('127.0.0.1:20555\n');
  await adb('shell', 'settings', 'put', 'global', 'http_proxy', ':0');
  await adb('reverse', '--remove', 'tcp:20555');
  expect(phone.reverses.size).toBe(0);
  expect(await adb('shell', 'settings', 'get', 'global', 'http_proxy')).toBe(':0\n');
  // Removing one that is not there fails with adbd's own words.
  await expect(adb('reverse', '--remove', 'tcp:20555')).rejects.toMatchObject({ stderr: expect.stringContaining("listener 'tcp:20555' not found") });
});

test('adb connect brings a network device back after the server restarted', async () => {
  const network = server.addDevice({ serial: '127.0.0.1:5565' });
  await server.restart();
  expect(await adb('devices')).not.toContain('127.0.0.1:5565');
  expect(await adb('connect', '127.0.0.1:5565')).toContain('connected to 127.0.0.1:5565');
  expect(await adb('devices')).toContain('127.0.0.1:5565\tdevice');
  expect(await adb('-s', '127.0.0.1:5565', 'shell', 'getprop', 'ro.serialno')).toBe(`${network.serial}\n`);
  server.devices.delete(network.serial);
});

test('the client accepted the fake’s version: it never asked the server to quit', () => {
  expect(server.services.filter((s) => s.service === 'host:version').length).toBeGreaterThan(0);
  expect(server.services.map((s) => s.service)).not.toContain('host:kill');
});
