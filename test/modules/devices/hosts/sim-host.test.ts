// The simulated host's lifecycle (place, boot for SIM_BOOT_MS, shut down), its typed errors,
// APK installs read from real manifests, and fault injection.
import { createReadStream, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../../src/modules/devices/hosts/sim/catalogue.js';
import { SimFaults } from '../../../../src/modules/devices/hosts/sim/faults.js';
import { SimHost } from '../../../../src/modules/devices/hosts/sim/sim-host.js';
import { buildApk } from './helpers/build-apk.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';
import { bootedSim, tapOn } from './helpers/sim.js';

let t: HostTestDb;
beforeAll(async () => {
  t = await openHostTestDb();
});
afterAll(() => t.close());

describe('lifecycle', () => {
  test('place → boot (takes SIM_BOOT_MS) → ready on the home screen → shut down', async () => {
    const host = new SimHost({ db: t.db, bootMs: 150 });
    const id = await t.createDevice();
    expect(await host.placement(id)).toBeNull();
    await expect(host.driver(id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    expect(await host.place(id)).toEqual({ deviceId: id, host: 'sim', slot: null, status: 'placed' });
    // Placing again answers the same placement.
    expect(await host.place(id)).toMatchObject({ deviceId: id, status: 'placed' });
    await expect(host.driver(id)).rejects.toMatchObject({ status: 409, code: 'device_not_ready' });
    const started = performance.now();
    await host.boot(id);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect(await host.placement(id)).toMatchObject({ status: 'ready' });
    const driver = await host.driver(id);
    expect(await driver.currentApp()).toMatchObject({ package: 'com.android.launcher3' });
    await host.shutdown(id);
    expect(await host.placement(id)).toBeNull();
    await expect(driver.uiTree()).rejects.toMatchObject({ status: 409, code: 'device_not_ready' });
    await expect(host.driver(id)).rejects.toMatchObject({ code: 'device_not_ready' });
    // Shutting down a device that is not placed leaves it as it is.
    await host.shutdown(id);
  });

  test('a reboot starts the phone fresh but keeps the installed apps', async () => {
    const apk = await buildApk({ package: 'org.example.reader', label: 'Reader', versionName: '3.1', versionCode: 31 });
    const { host, id, driver } = await bootedSim(t);
    await driver.installApk(apk);
    await driver.openApp(DEMO_APP_PACKAGE);
    await tapOn(driver, 'Checkout');
    await host.shutdown(id);
    await host.place(id);
    await host.boot(id);
    const again = await host.driver(id);
    expect(await again.currentApp()).toMatchObject({ package: 'com.android.launcher3' });
    expect((await again.listApps()).map((a) => a.package)).toContain('org.example.reader');
  });

  test('a shutdown during a boot wins: the boot fails and the device stays down', async () => {
    const host = new SimHost({ db: t.db, bootMs: 300 });
    const id = await t.createDevice();
    await host.place(id);
    const booting = host.boot(id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await host.shutdown(id);
    await expect(booting).rejects.toMatchObject({ code: 'not_found' });
    expect(await host.placement(id)).toBeNull();
    await expect(host.driver(id)).rejects.toMatchObject({ code: 'device_not_ready' });
  });

  test('a boot can be abandoned (the worker stops), and a later boot completes', async () => {
    const host = new SimHost({ db: t.db, bootMs: 10_000 });
    const id = await t.createDevice();
    await host.place(id);
    const abort = new AbortController();
    const booting = host.boot(id, { signal: abort.signal });
    abort.abort(new Error('worker stopping'));
    await expect(booting).rejects.toThrow('worker stopping');
    expect(await host.placement(id)).toMatchObject({ status: 'booting' });
    const quick = new SimHost({ db: t.db, bootMs: 0 });
    await quick.boot(id);
    expect(await quick.placement(id)).toMatchObject({ status: 'ready' });
  });

  test('a device that does not exist cannot be placed; deleting a device removes its host rows', async () => {
    const host = new SimHost({ db: t.db, bootMs: 0 });
    await expect(host.place(987_654)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const { id } = await bootedSim(t);
    await t.db.kysely.deleteFrom('devices').where('id', '=', id).execute();
    expect(await host.placement(id)).toBeNull();
    await expect(host.driver(id)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('APK installs', () => {
  test('an APK from a path or a stream is recorded with the label and version from its manifest', async () => {
    const { driver } = await bootedSim(t);
    const apk = await buildApk({ package: 'com.example.notes', label: 'Field Notes', versionName: '1.2.3', versionCode: 7 });
    expect(await driver.installApk(apk)).toEqual({ package: 'com.example.notes', label: 'Field Notes', version_name: '1.2.3', version_code: 7 });
    const update = await buildApk({ package: 'com.example.notes', label: 'Field Notes', versionName: '1.3.0', versionCode: 8 });
    expect(await driver.installApk(createReadStream(update))).toMatchObject({ version_name: '1.3.0', version_code: 8 });
    expect(await driver.listApps()).toContainEqual({ package: 'com.example.notes', label: 'Field Notes', version_name: '1.3.0' });
    // It shows on the home screen and opens (to a page that says what the simulator can do).
    await tapOn(driver, 'Field Notes');
    expect(await driver.currentApp()).toEqual({ package: 'com.example.notes', activity: 'com.example.notes.MainActivity' });
    expect((await driver.uiTree()).find((e) => e.element_id === 'message')?.text).toContain('cannot run');
  });

  test('a file that is not an APK answers invalid_apk and installs nothing', async () => {
    const { driver } = await bootedSim(t);
    const before = await driver.listApps();
    const junk = join(tmpdir(), `not-an-apk-${process.pid}.apk`);
    writeFileSync(junk, 'PK\u0003\u0004 this is not a zip at all');
    await expect(driver.installApk(junk)).rejects.toMatchObject({ status: 422, code: 'invalid_apk' });
    await expect(driver.installApk(createReadStream(junk))).rejects.toMatchObject({ status: 422, code: 'invalid_apk' });
    expect(await driver.listApps()).toEqual(before);
  });
});

describe('fault injection', () => {
  test('a boot failure is a host fault with the message; the device is not ready', async () => {
    const faults = new SimFaults().inject('boot', { kind: 'fail', message: 'emulator image is corrupt' }, { times: 1 });
    const host = new SimHost({ db: t.db, bootMs: 0, faults });
    const id = await t.createDevice();
    await host.place(id);
    await expect(host.boot(id)).rejects.toMatchObject({ status: 502, code: 'device_host_fault', message: 'emulator image is corrupt' });
    await expect(host.driver(id)).rejects.toMatchObject({ code: 'device_not_ready' });
    // Armed once: the next boot works.
    await host.boot(id);
    expect(await host.placement(id)).toMatchObject({ status: 'ready' });
  });

  test('a slow screenshot takes its time; a host fault fails any call; no capacity on place', async () => {
    const faults = new SimFaults();
    const { host, id, driver } = await bootedSim(t, { faults });
    faults.inject('screenshot', { kind: 'delay', ms: 200 }, { deviceId: id, times: 1 });
    const started = performance.now();
    await driver.screenshot({ format: 'jpeg', maxEdge: 320 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
    faults.inject('*', { kind: 'fail', message: 'host lost power' }, { deviceId: id });
    await expect(driver.tap(10, 10)).rejects.toMatchObject({ code: 'device_host_fault', message: 'host lost power' });
    await expect(driver.uiTree()).rejects.toMatchObject({ code: 'device_host_fault' });
    await expect(host.shutdown(id)).rejects.toMatchObject({ code: 'device_host_fault' });
    faults.clear();
    expect(await driver.uiTree()).not.toHaveLength(0);
    faults.inject('place', { kind: 'no_capacity' });
    await expect(host.place(await t.createDevice())).rejects.toMatchObject({ status: 503, code: 'no_device_capacity', message: expect.stringContaining('no device capacity') });
  });
});
