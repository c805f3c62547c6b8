// A worker killed mid-boot: the real binary (`svc worker`) claims a device that is starting
// and is killed with SIGKILL during the boot. Its lease holds the device until it runs out;
// then another worker takes the device over and carries it on to ready.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sqliteFileIn } from '../../../src/db/database.js';
import { type Clock, ManualClock } from '../../../src/lib/clock.js';
import { LIFECYCLE_LEASE_MS } from '../../../src/modules/devices/lifecycle/job.js';
import { createTestApp, dropStorage, newStorage, type TestApp, type TestStorage } from '../../helpers/app.js';
import { TEST_DATABASE_URL } from '../../helpers/engine.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { databaseUrlFor, spawnSvc, type SvcProcess } from '../../helpers/svc-process.js';
import { signUp } from '../../helpers/users.js';
import { deviceRow, lifecycleFor } from './helpers/cloud.js';

let dir: string;
let storage: TestStorage;
let t: TestApp;
let child: SvcProcess | undefined;

async function onServer(sql: string) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-killed-'));
  storage = { ...newStorage(), sqliteFile: TEST_DATABASE_URL ? undefined : sqliteFileIn(dir) };
  if (storage.pgSchema) await onServer(`create schema ${storage.pgSchema}`);
  t = await createTestApp({ shareWith: storage, clock: new ManualClock(Date.now()), env: { SIM_BOOT_MS: '0' } });
});
afterAll(async () => {
  child?.kill();
  await t?.close();
  if (storage) await dropStorage(storage);
  rmSync(dir, { recursive: true, force: true });
});

test('a device whose worker was killed during starting is recovered by the next worker once the lease lapses', async () => {
  const user = await signUp(t.app);
  const { id } = await createCloudDevice(t.app, user);
  expect((await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/start`, headers: user.auth })).statusCode).toBe(202);

  // A worker whose boots take a minute: it will be killed long before one ends.
  child = spawnSvc('worker', { SIM_BOOT_MS: '60000', SECRET_KEY: randomBytes(32).toString('hex'), DATA_DIR: dir, DATABASE_URL: databaseUrlFor(storage.pgSchema) });
  const pid = String(child.child.pid);
  await expect
    .poll(async () => {
      const row = await deviceRow(t.db, id);
      return row?.hosted_state === 'starting' && String(row.locked_by).includes(`:${pid}:`);
    }, { timeout: 20_000, interval: 50 })
    .toBe(true);
  child.kill();
  await new Promise((resolve) => child?.child.once('exit', resolve));
  const stuck = await deviceRow(t.db, id);
  expect(stuck).toMatchObject({ hosted_state: 'starting' });

  // While the dead worker's lease has not run out, nobody takes the device.
  const now: Clock = { now: () => Date.now() };
  expect(await lifecycleFor(t.db, now).worker.runOnce()).toBe(0);
  // Once it has, the next worker carries the device on from where it was.
  const later: Clock = { now: () => Date.now() + LIFECYCLE_LEASE_MS + 1_000 };
  const next = lifecycleFor(t.db, later, { name: 'recovering-worker' });
  expect(await next.worker.runOnce()).toBe(1);
  expect(await deviceRow(t.db, id)).toMatchObject({ hosted_state: 'ready', locked_by: null });
  expect(await next.host.placement(id)).toMatchObject({ status: 'ready' });
}, 60_000);
