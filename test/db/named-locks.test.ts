// Named locks (src/db/named-locks.ts) on the engine of this run, from two connections as two
// processes would hold them: one holder at a time, a lapsed lease is taken over, only the
// holder releases, and waiters run one after another.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { NamedLockTimeoutError, releaseNamedLock, tryTakeNamedLock, withNamedLock } from '../../src/db/named-locks.js';
import { systemClock } from '../../src/lib/clock.js';
import type { Db } from '../../src/db/database.js';
import { type HostTestDb, openHostTestDb } from '../modules/devices/hosts/helpers/database.js';

let t: HostTestDb;
let a: Db;
let b: Db;
beforeAll(async () => {
  t = await openHostTestDb();
  a = t.db;
  b = t.connect();
});
afterAll(() => t.close());

test('one holder at a time; a lapsed lease is taken over; only the holder releases', async () => {
  expect(await tryTakeNamedLock(a, 'phone-1', 'h1', 1000, 500)).toBe(true);
  expect(await tryTakeNamedLock(b, 'phone-1', 'h2', 1200, 500)).toBe(false);
  expect(await tryTakeNamedLock(b, 'phone-2', 'h2', 1200, 500)).toBe(true);
  await releaseNamedLock(b, 'phone-1', 'h2'); // not its lock: nothing happens
  expect(await tryTakeNamedLock(b, 'phone-1', 'h2', 1400, 500)).toBe(false);
  // h1 crashed: at its lease's end the lock is free.
  expect(await tryTakeNamedLock(b, 'phone-1', 'h2', 1500, 500)).toBe(true);
  await releaseNamedLock(b, 'phone-1', 'h2');
  expect(await tryTakeNamedLock(a, 'phone-1', 'h3', 1600, 500)).toBe(true);
  await releaseNamedLock(a, 'phone-1', 'h3');
  await releaseNamedLock(b, 'phone-2', 'h2');
});

test('work under the lock from two connections never overlaps; a waiter that waits too long gives up', async () => {
  let inside = 0;
  let most = 0;
  const work = async () => {
    inside += 1;
    most = Math.max(most, inside);
    await new Promise((resolve) => setTimeout(resolve, 20));
    inside -= 1;
  };
  const options = { leaseMs: 5000, waitMs: 5000, pollMs: 5 };
  await Promise.all([a, b, a, b, a, b].map((db) => withNamedLock(db, systemClock, 'phone-3', options, work)));
  expect(most).toBe(1);
  const held = withNamedLock(a, systemClock, 'phone-4', options, () => new Promise((resolve) => setTimeout(resolve, 200)));
  await new Promise((resolve) => setTimeout(resolve, 20));
  await expect(withNamedLock(b, systemClock, 'phone-4', { leaseMs: 5000, waitMs: 50, pollMs: 5 }, async () => 'never')).rejects.toBeInstanceOf(NamedLockTimeoutError);
  await held;
});
