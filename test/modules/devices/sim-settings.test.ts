// SIM_SEED and SIM_APPS_DIR (decisions.md §15): the seed is a whole number; a folder of app
// descriptions is installed on every simulated device; a file that does not parse, breaks a
// rule or repeats a package stops start-up with the file named, in the real binary too. The
// devices module reads the folder when it builds its simulator (config.ts imports no module).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { createDeviceHost } from '../../../src/modules/devices/hosts/index.js';
import { type HostTestDb, openHostTestDb } from './hosts/helpers/database.js';

const button = { id: 'go', class: 'android.widget.Button', text: 'Order coffee', resource_id: 'com.acme.coffee:id/go', content_desc: '', bounds: { left: 48, top: 400, right: 1032, bottom: 544 }, clickable: true, editable: false };
const acme = { package: 'com.acme.coffee', label: 'Acme Coffee', screens: [{ id: 'main', title: 'Acme', activity: 'com.acme.coffee.Main', elements: [button] }] };

let dir: string;
let t: HostTestDb;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-sim-apps-'));
  t = await openHostTestDb();
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

function folder(files: Record<string, string | object>): string {
  const path = mkdtempSync(join(dir, 'apps-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(path, name), typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('SIM_SEED', () => {
  test('a whole number, or unset', () => {
    expect(loadConfig({}).simSeed).toBeUndefined();
    expect(loadConfig({ SIM_SEED: '42' }).simSeed).toBe(42);
    expect(() => loadConfig({ SIM_SEED: 'abc' })).toThrow('Invalid setting SIM_SEED: expected a whole number, got "abc"');
    expect(() => loadConfig({ SIM_SEED: '4294967296' })).toThrow(ConfigError);
  });
});

describe('SIM_APPS_DIR', () => {
  test('every description in the folder is installed on every simulated device and opens', async () => {
    const path = folder({ 'acme.json': acme, 'notes.txt': 'not an app' });
    const config = loadConfig({ SIM_APPS_DIR: path, SIM_BOOT_MS: '0' });
    expect(config.simAppsDir).toBe(path);
    const host = createDeviceHost(config, { db: t.db });
    const id = await t.createDevice();
    await host.place(id);
    await host.boot(id);
    const driver = await host.driver(id);
    expect((await driver.listApps()).map((a) => a.label)).toEqual(['Acme Coffee', 'Corner Shop', 'Daily Feed', 'Settings']);
    await driver.openApp('com.acme.coffee');
    expect((await driver.uiTree()).map((e) => e.text)).toEqual(['Order coffee']);
  });

  test.each([
    ['a file that is not JSON', { 'broken.json': '{"package": ' }, /SIM_APPS_DIR: .*broken\.json is not valid JSON/],
    ['a file that breaks a rule', { 'bad.json': { ...acme, screens: [{ ...acme.screens[0], elements: [{ ...button, appear_after_ms: 90_000 }] }] } }, /SIM_APPS_DIR: Invalid app description .*bad\.json: screen main element go \(\/screens\/0\/elements\/0\/appear_after_ms\) must be <= 60000/],
    ['a built-in app’s package', { 'shop.json': { ...acme, package: 'com.example.shop' } }, /SIM_APPS_DIR: .*shop\.json describes com\.example\.shop, which a built-in app already has/],
    ['two files with one package: the later is named', { 'a.json': acme, 'b.json': { ...acme, label: 'Acme 2' } }, /SIM_APPS_DIR: .*\/b\.json describes com\.acme\.coffee, which .*\/a\.json already has/],
  ])('%s stops start-up, naming the file', (_name, files, message) => {
    const path = folder(files);
    expect(() => createDeviceHost(loadConfig({ SIM_APPS_DIR: path }), { db: t.db })).toThrow(message);
  });

  test('a folder that does not exist stops start-up', () => {
    expect(() => createDeviceHost(loadConfig({ SIM_APPS_DIR: join(dir, 'nope') }), { db: t.db })).toThrow(/SIM_APPS_DIR: .*nope does not exist/);
  });

  test('the real binary exits with code 2 and the file and problem on standard error', () => {
    const path = folder({ 'acme.json': acme, 'zz-dup.json': { ...acme, label: 'Copy' } });
    const run = spawnSync('node', ['dist/main.js', 'serve'], { env: { ...process.env, BASE_URL: '', DATABASE_URL: '', REDIS_URL: '', SIM_APPS_DIR: path, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1' }, encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`Invalid setting SIM_APPS_DIR: ${join(path, 'zz-dup.json')} describes com.acme.coffee, which ${join(path, 'acme.json')} already has`);
  });
});
