// Two app instances on one database, as a `serve` and a `worker` process (or two `serve`s)
// would be: a device started through one is booted by the other's lifecycle worker, shown and
// leased through either, and a stop through one ends the lease the other handed out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sqliteFileIn } from '../../../src/db/database.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { createTestApp, dropStorage, newStorage, type TestApp, type TestStorage } from '../../helpers/app.js';
import { TEST_DATABASE_URL } from '../../helpers/engine.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { signUp } from '../../helpers/users.js';
import { decode } from './hosts/helpers/pixels.js';
import { deviceRow, lifecycleFor } from './helpers/cloud.js';

let dir: string;
let storage: TestStorage;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-two-'));
  storage = { ...newStorage(), sqliteFile: TEST_DATABASE_URL ? undefined : sqliteFileIn(dir) };
  if (storage.pgSchema) {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`create schema ${storage.pgSchema}`).finally(() => client.end());
  }
  const clock = new ManualClock(Date.now());
  a = await createTestApp({ shareWith: storage, clock, env: { SIM_BOOT_MS: '0' } });
  b = await createTestApp({ shareWith: storage, clock, env: { SIM_BOOT_MS: '0' } });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  if (storage) await dropStorage(storage);
  rmSync(dir, { recursive: true, force: true });
});

test('started through one process, booted by the other, driven and leased through both', async () => {
  const user = await signUp(a.app);
  const { id } = await createCloudDevice(a.app, user);
  expect((await a.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/start`, headers: user.auth })).statusCode).toBe(202);
  // B's worker boots it.
  expect(await lifecycleFor(b.db, b.clock).worker.runOnce()).toBe(1);
  expect((await deviceRow(a.db, id))?.hosted_state).toBe('ready');

  // A tool client leases it through A and drives it through B; A's screenshot shows the change.
  const caller = { userId: user.id, keyId: null };
  const grant = await a.app.modules.devices.services.leases.lease(caller, { device_id: id });
  const { driver } = await b.app.modules.devices.services.leases.resolve(caller, { lease_id: grant.lease_id });
  const before = (await a.app.inject({ url: `/api/hosted/devices/${id}/screenshot`, headers: user.auth })).rawPayload;
  await driver.openApp('com.example.shop');
  const after = (await a.app.inject({ url: `/api/hosted/devices/${id}/screenshot`, headers: user.auth })).rawPayload;
  expect((await decode(after)).width).toBe(1080);
  expect(after.equals(before)).toBe(false);
  expect(await a.app.modules.devices.services.leases.holderOf(id)).toMatchObject({ lease_id: grant.lease_id });

  // A stop through B, carried out by A's worker, ends the lease A handed out.
  expect((await b.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/stop`, headers: user.auth })).statusCode).toBe(202);
  expect(await lifecycleFor(a.db, a.clock).worker.runOnce()).toBe(1);
  expect((await deviceRow(b.db, id))?.hosted_state).toBe('stopped');
  expect(await a.app.modules.devices.services.leases.holderOf(id)).toBeNull();
  const res = await b.app.inject({ url: `/api/hosted/devices/${id}/apps`, headers: user.auth });
  expect([res.statusCode, res.json().details.code]).toEqual([409, 'device_not_ready']);
});
