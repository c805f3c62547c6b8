// Leases on queue rows (src/db/jobs/leases.ts), on both engines: a claim takes due rows
// without a live lease; two claimers never get the same row (on PostgreSQL two pools
// claiming at the same time); a result written after the lease was lost is refused; a
// lease is renewed and released only while it is held.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { claimDueJobs, completeJob, releaseLease, renewLease, renewLeases, updateWhileHeld } from '../../src/db/jobs/leases.js';
import { createTestApp, type TestApp, type TestStorage } from '../helpers/app.js';
import { ENGINE } from '../helpers/engine.js';
import { queueRows, rowOf, testKind } from '../helpers/jobs.js';
import { signUp } from '../helpers/users.js';

let t: TestApp & { storage: TestStorage };
const NOW = Date.parse('2026-03-02T10:00:00.000Z');

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function freshQueue(count: number, at = NOW) {
  const user = await signUp(t.app);
  const ids = await queueRows(t.db.kysely, user.id, count, at);
  return { kind: testKind(user.id), ids, userId: user.id };
}

const claim = (db: Db, kind: ReturnType<typeof testKind>, token: string, limit: number, now = NOW) => claimDueJobs(db, kind, { now, token, limit });

describe('claiming', () => {
  test('takes due rows in due order up to the limit, leases them to the token, and skips rows not yet due or under a live lease', async () => {
    const { kind, ids, userId } = await freshQueue(3);
    const [later] = await queueRows(t.db.kysely, userId, 1, NOW + 5_000);
    const first = await claim(t.db, kind, 'a', 2);
    expect(first).toEqual([
      { id: ids[0], token: 'a' },
      { id: ids[1], token: 'a' },
    ]);
    expect(await rowOf(t.db.kysely, ids[0])).toMatchObject({ locked_by: 'a', locked_until: NOW + kind.leaseMs });
    expect(await claim(t.db, kind, 'b', 10)).toEqual([{ id: ids[2], token: 'b' }]);
    expect(await claim(t.db, kind, 'c', 10)).toEqual([]);
    expect(await claim(t.db, kind, 'd', 10, NOW + 5_000)).toEqual([{ id: later, token: 'd' }]);
    // Once their leases ran out, a retrying kind's rows are due again.
    const lapsed = await claim(t.db, kind, 'e', 10, NOW + kind.leaseMs);
    expect(lapsed.map((lease) => lease.id)).toEqual(ids);
  });

  test(`two claimers never get the same row (${ENGINE === 'postgres' ? 'two pools, claiming at the same time' : 'one connection serialises them'})`, async () => {
    const { kind, ids } = await freshQueue(300);
    // PostgreSQL: a second Db is a second pool, as in a second process.
    const other = ENGINE === 'postgres' ? await createTestApp({ shareWith: t.storage }) : undefined;
    try {
      const pools = [t.db, other?.db ?? t.db];
      const taken: number[][] = [];
      const claimer = async (db: Db, name: string) => {
        const mine: number[] = [];
        for (let round = 0; ; round++) {
          const leases = await claim(db, kind, `${name}-${round}`, 7);
          if (leases.length === 0) break;
          mine.push(...leases.map((lease) => lease.id));
        }
        taken.push(mine);
      };
      await Promise.all(pools.flatMap((db, p) => [0, 1, 2, 3].map((c) => claimer(db, `p${p}c${c}`))));
      const all = taken.flat();
      expect(all).toHaveLength(300);
      expect(new Set(all)).toEqual(new Set(ids));
      // Real contention: several claimers got work.
      expect(taken.filter((mine) => mine.length > 0).length).toBeGreaterThan(1);
    } finally {
      await other?.close();
    }
  });
});

describe('a lost lease', () => {
  test('a result written after the lease expired and the row was claimed again is refused, and the new holder writes its own', async () => {
    const { kind, ids } = await freshQueue(1);
    const [old] = await claim(t.db, kind, 'crashed', 1);
    const later = NOW + kind.leaseMs + 1;
    const [current] = await claim(t.db, kind, 'successor', 1, later);
    expect(current).toEqual({ id: old.id, token: 'successor' });

    expect(await completeJob(t.db.kysely, kind, old, later + 1, { status: 'succeeded', last_error: 'stale' })).toBe(false);
    expect(await updateWhileHeld(t.db.kysely, kind, old, later + 1, { last_error: 'stale progress' })).toBe(false);
    expect(await rowOf(t.db.kysely, ids[0])).toMatchObject({ status: 'pending', locked_by: 'successor', last_error: null });

    expect(await completeJob(t.db.kysely, kind, current, later + 2, (eb) => ({ status: 'succeeded', attempts: eb('attempts', '+', 1) }))).toBe(true);
    expect(await rowOf(t.db.kysely, ids[0])).toMatchObject({ status: 'succeeded', locked_by: null, locked_until: null, attempts: 1 });
  });

  test('a result written after the lease ran out is refused even when nobody claimed the row again', async () => {
    const { kind, ids } = await freshQueue(1);
    const [lease] = await claim(t.db, kind, 'slow', 1);
    expect(await completeJob(t.db.kysely, kind, lease, NOW + kind.leaseMs, { status: 'succeeded' })).toBe(false);
    expect(await rowOf(t.db.kysely, ids[0])).toMatchObject({ status: 'pending', locked_by: 'slow' });
  });

  test('a write inside a transaction that rolls back leaves the lease and the row as they were', async () => {
    const { kind, ids } = await freshQueue(1);
    const [lease] = await claim(t.db, kind, 'holder', 1);
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        expect(await completeJob(trx, kind, lease, NOW + 1, { status: 'succeeded' })).toBe(true);
        throw new Error('the rest of the outcome failed');
      }),
    ).rejects.toThrow('the rest of the outcome failed');
    expect(await rowOf(t.db.kysely, ids[0])).toMatchObject({ status: 'pending', locked_by: 'holder', locked_until: NOW + kind.leaseMs });
  });
});

describe('renewing and releasing', () => {
  test('renew extends the lease from now only while it is held', async () => {
    const { kind, ids } = await freshQueue(1);
    const [lease] = await claim(t.db, kind, 'long', 1);
    expect(await renewLease(t.db.kysely, kind, lease, NOW + 4_000)).toBe(true);
    expect(await rowOf(t.db.kysely, ids[0])).toMatchObject({ locked_until: NOW + 4_000 + kind.leaseMs });
    // Renewed, it is held past its first expiry: nobody else can claim it then.
    expect(await claim(t.db, kind, 'thief', 1, NOW + kind.leaseMs + 1)).toEqual([]);

    expect(await renewLease(t.db.kysely, kind, { id: lease.id, token: 'someone-else' }, NOW + 5_000)).toBe(false);
    const expired = NOW + 4_000 + kind.leaseMs;
    expect(await renewLease(t.db.kysely, kind, lease, expired)).toBe(false);
    expect(await rowOf(t.db.kysely, ids[0])).toMatchObject({ locked_by: 'long', locked_until: expired });
  });

  test("a batch's leases are renewed together; one lost makes the renewal answer false and the others still renewed", async () => {
    const { kind, ids } = await freshQueue(3);
    const leases = await claim(t.db, kind, 'batch', 3);
    expect(await renewLeases(t.db.kysely, kind, leases, NOW + 4_000)).toBe(true);
    for (const id of ids) expect(await rowOf(t.db.kysely, id)).toMatchObject({ locked_by: 'batch', locked_until: NOW + 4_000 + kind.leaseMs });
    expect(await releaseLease(t.db.kysely, kind, leases[1]!, NOW + 4_001)).toBe(true);
    expect(await renewLeases(t.db.kysely, kind, leases, NOW + 5_000)).toBe(false);
    expect(await rowOf(t.db.kysely, ids[0])).toMatchObject({ locked_until: NOW + 5_000 + kind.leaseMs });
    expect(await rowOf(t.db.kysely, ids[1])).toMatchObject({ locked_by: null, locked_until: null });
  });

  test('release gives the row back unchanged, only by its holder; afterwards the old lease holds nothing', async () => {
    const { kind, ids } = await freshQueue(1);
    const [lease] = await claim(t.db, kind, 'holder', 1);
    expect(await releaseLease(t.db.kysely, kind, { id: lease.id, token: 'intruder' }, NOW + 1)).toBe(false);
    expect(await rowOf(t.db.kysely, ids[0])).toMatchObject({ locked_by: 'holder' });
    expect(await releaseLease(t.db.kysely, kind, lease, NOW + 1)).toBe(true);
    expect(await rowOf(t.db.kysely, ids[0])).toMatchObject({ status: 'pending', locked_by: null, locked_until: null });
    expect(await renewLease(t.db.kysely, kind, lease, NOW + 2)).toBe(false);
    expect(await releaseLease(t.db.kysely, kind, lease, NOW + 2)).toBe(false);
    expect(await claim(t.db, kind, 'next', 1, NOW + 2)).toEqual([{ id: ids[0], token: 'next' }]);
  });
});
