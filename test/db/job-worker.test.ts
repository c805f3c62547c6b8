// The generic worker loop (src/db/jobs/worker.ts), on both engines: a lapsed lease is
// recovered by the kind's rule (claimed again, or ended by the lapsed handler and never run
// again); long jobs keep their lease by renewing it; a lost lease or the time-out aborts
// the job's signal; concurrency is respected and freed slots are refilled without a poll;
// a wake-up starts work at once; stop waits for the jobs in flight.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { claimDueJobs, completeJob } from '../../src/db/jobs/leases.js';
import { type JobHandlers, JobWorker } from '../../src/db/jobs/worker.js';
import type { PgWakeup } from '../../src/db/wakeup-pg.js';
import { type Clock, systemClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { ENGINE } from '../helpers/engine.js';
import { queueRows, rowOf, testKind } from '../helpers/jobs.js';
import { signUp } from '../helpers/users.js';
import { silentLog } from '../helpers/webhooks.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const userId = async () => (await signUp(t.app)).id;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function worker<K extends ReturnType<typeof testKind<'retry'>> | ReturnType<typeof testKind<'lapsed'>>>(kind: K, handlers: JobHandlers<K>, clock: Clock = t.clock) {
  return new JobWorker({ db: t.db, clock, log: silentLog, kind, handlers, name: 'test-worker' });
}

describe('a lease that lapsed (its worker crashed)', () => {
  test('retrying kind: the row is run again once the lease has run out, not before', async () => {
    const user = await userId();
    const kind = testKind(user);
    const [id] = await queueRows(t.db.kysely, user, 1, t.clock.now());
    await claimDueJobs(t.db, kind, { now: t.clock.now(), token: 'crashed-worker', limit: 1 });
    const ran: number[] = [];
    const w = worker(kind, {
      run: async ({ lease }) => {
        ran.push(lease.id);
        await completeJob(t.db.kysely, kind, lease, t.clock.now(), { status: 'succeeded' });
      },
    });
    expect(await w.runOnce()).toBe(0);
    t.clock.advance(kind.leaseMs);
    expect(await w.runOnce()).toBe(1);
    expect(ran).toEqual([id]);
    expect(await rowOf(t.db.kysely, id)).toMatchObject({ status: 'succeeded', locked_by: null });
  });

  test('lapsed kind: the row is never run again; the lapsed handler ends it as failed, "worker lost", once', async () => {
    const user = await userId();
    const kind = testKind(user, { onLapse: 'lapsed' });
    const [crashed, waiting] = await queueRows(t.db.kysely, user, 2, t.clock.now());
    await claimDueJobs(t.db, kind, { now: t.clock.now(), token: 'crashed-worker', limit: 1 });
    const ran: number[] = [];
    const ended: number[] = [];
    const w = worker(kind, {
      run: async ({ lease }) => {
        ran.push(lease.id);
        await completeJob(t.db.kysely, kind, lease, t.clock.now(), { status: 'succeeded' });
      },
      lapsed: async (lease) => {
        ended.push(lease.id);
        await completeJob(t.db.kysely, kind, lease, t.clock.now(), { status: 'failed', last_error: 'worker lost' });
      },
    });
    // Within the lease: the crashed worker's row is neither run nor ended; the other row runs.
    expect(await w.runOnce()).toBe(1);
    expect({ ran, ended }).toEqual({ ran: [waiting], ended: [] });
    t.clock.advance(kind.leaseMs);
    expect(await w.runOnce()).toBe(0);
    expect(await w.runOnce()).toBe(0);
    expect({ ran, ended }).toEqual({ ran: [waiting], ended: [crashed] });
    expect(await rowOf(t.db.kysely, crashed)).toMatchObject({ status: 'failed', last_error: 'worker lost', locked_by: null, locked_until: null });
  });

  test('lapsed kind under the running loop: recovery happens without runOnce', async () => {
    const user = await userId();
    const kind = testKind(user, { onLapse: 'lapsed' });
    const [crashed] = await queueRows(t.db.kysely, user, 1, t.clock.now() - kind.leaseMs);
    await claimDueJobs(t.db, kind, { now: t.clock.now() - kind.leaseMs, token: 'crashed-worker', limit: 1 });
    const w = worker(kind, {
      run: async () => undefined,
      lapsed: async (lease) => void (await completeJob(t.db.kysely, kind, lease, t.clock.now(), { status: 'failed', last_error: 'worker lost' })),
    });
    w.start();
    try {
      await expect.poll(async () => (await rowOf(t.db.kysely, crashed)).last_error).toBe('worker lost');
    } finally {
      await w.stop();
    }
  });
});

describe('long jobs and lost leases (real time)', () => {
  test('a job that outlives its lease keeps it by renewing; nobody else can claim it meanwhile', async () => {
    const user = await userId();
    const kind = testKind(user, { leaseMs: 400, renewEveryMs: 100, timeoutMs: 5_000 });
    const [id] = await queueRows(t.db.kysely, user, 1, Date.now());
    let result: boolean | undefined;
    const w = worker(
      kind,
      {
        run: async ({ lease }) => {
          await sleep(1_200);
          result = await completeJob(t.db.kysely, kind, lease, Date.now(), { status: 'succeeded' });
        },
      },
      systemClock,
    );
    const done = w.runOnce();
    for (const wait of [500, 400]) {
      await sleep(wait);
      expect(await claimDueJobs(t.db, kind, { now: Date.now(), token: 'thief', limit: 1 })).toEqual([]);
    }
    expect(await done).toBe(1);
    expect(result).toBe(true);
    expect(await rowOf(t.db.kysely, id)).toMatchObject({ status: 'succeeded' });
  });

  test('a lease taken away aborts the job at its next renewal; the time-out aborts it too', async () => {
    const user = await userId();
    const kind = testKind(user, { leaseMs: 2_000, renewEveryMs: 100, timeoutMs: 1_500 });
    const [stolen, slow] = await queueRows(t.db.kysely, user, 2, Date.now());
    const reasons = new Map<number, string>();
    const w = worker(
      kind,
      {
        run: ({ lease, signal }) =>
          new Promise<void>((resolve) => {
            signal.addEventListener('abort', () => {
              reasons.set(lease.id, (signal.reason as Error).message);
              resolve();
            });
            if (lease.id === stolen) void t.db.kysely.updateTable('webhook_deliveries').set({ locked_by: 'another-worker' }).where('id', '=', stolen).execute();
          }),
      },
      systemClock,
    );
    const started = Date.now();
    expect(await w.runOnce()).toBe(2);
    expect(reasons.get(stolen)).toMatch(/lost its lease/);
    expect(reasons.get(slow)).toMatch(/timed out after 1500 ms/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
  });
});

describe('the running loop', () => {
  test('runs at most `concurrency` jobs at once and refills freed slots without waiting for the 60 s poll', async () => {
    const user = await userId();
    const kind = testKind(user, { concurrency: 3 });
    await queueRows(t.db.kysely, user, 20, t.clock.now());
    let running = 0;
    let most = 0;
    let finished = 0;
    const w = worker(kind, {
      run: async ({ lease }) => {
        most = Math.max(most, ++running);
        await sleep(20);
        running--;
        await completeJob(t.db.kysely, kind, lease, t.clock.now(), { status: 'succeeded' });
        finished++;
      },
    });
    const started = Date.now();
    w.start();
    try {
      // Far below the 60 s poll, with room for a loaded machine.
      await expect.poll(() => finished, { timeout: 20_000 }).toBe(20);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(most).toBe(3);
    } finally {
      await w.stop();
    }
  });

  test('work queued while every slot is busy starts as soon as a slot frees, not at the 60 s poll', async () => {
    const user = await userId();
    const kind = testKind(user, { concurrency: 1 });
    await queueRows(t.db.kysely, user, 1, t.clock.now());
    const started: number[] = [];
    let releaseFirst: () => void = () => undefined;
    const w = worker(kind, {
      run: async ({ lease }) => {
        started.push(Date.now());
        if (started.length === 1) await new Promise<void>((resolve) => (releaseFirst = resolve));
        await completeJob(t.db.kysely, kind, lease, t.clock.now(), { status: 'succeeded' });
      },
    });
    w.start();
    try {
      await expect.poll(() => started.length).toBe(1);
      if (ENGINE === 'postgres') await (t.db.wakeup as PgWakeup).listening();
      await t.db.kysely.transaction().execute(async (trx) => {
        await queueRows(trx, user, 1, t.clock.now());
        await t.db.wakeup.notify(trx, kind.name);
      });
      await sleep(200);
      expect(started).toHaveLength(1);
      const freedAt = Date.now();
      releaseFirst();
      await expect.poll(() => started.length, { timeout: 2_000, interval: 5 }).toBe(2);
      expect(started[1] - freedAt).toBeLessThan(1_000);
    } finally {
      await w.stop();
    }
  });

  test(`a wake-up starts queued work at once (${ENGINE === 'postgres' ? 'LISTEN/NOTIFY' : 'in-process signal'}); stop waits for the job in flight`, async () => {
    const user = await userId();
    const kind = testKind(user);
    let release: () => void = () => undefined;
    let startedAt = 0;
    let finished = false;
    const w = worker(kind, {
      run: async ({ lease }) => {
        startedAt = Date.now();
        await new Promise<void>((resolve) => (release = resolve));
        await completeJob(t.db.kysely, kind, lease, t.clock.now(), { status: 'succeeded' });
        finished = true;
      },
    });
    w.start();
    if (ENGINE === 'postgres') await (t.db.wakeup as PgWakeup).listening();
    await sleep(100); // the loop's first look (empty) is over; only a wake-up can start the job now
    const queuedAt = Date.now();
    await t.db.kysely.transaction().execute(async (trx) => {
      await queueRows(trx, user, 1, t.clock.now());
      await t.db.wakeup.notify(trx, kind.name);
    });
    await expect.poll(() => startedAt, { timeout: 2_000, interval: 5 }).toBeGreaterThan(0);
    expect(startedAt - queuedAt).toBeLessThan(1_000);

    const stopped = w.stop();
    await sleep(50);
    expect(finished).toBe(false);
    release();
    await stopped;
    expect(finished).toBe(true);
  });
});
