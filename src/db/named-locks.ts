// Named locks: one holder at a time for a name, across every process on the database, for
// work that a device allows only once at a time (a phone's UI dump). A take is one upsert
// that wins only when the name is free or its lease ran out, the same on both engines
// (`INSERT … ON CONFLICT DO UPDATE … WHERE`); a crashed holder's lock frees itself when its
// lease ends. Waiters poll: the work behind these locks takes about a second, so a tenth
// of that is a fair price for needing nothing beyond the database every process shares.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../lib/clock.js';
import type { Db } from './database.js';

export interface NamedLockOptions {
  /** How long the lock holds without a release (longer than the work can take). */
  leaseMs: number;
  /** How long to wait for it before giving up. */
  waitMs: number;
  /** How often a waiter looks again (default 50 ms). */
  pollMs?: number;
}

/** Takes the lock for `holder` when it is free or lapsed; true when taken. */
export async function tryTakeNamedLock(db: Db, name: string, holder: string, now: number, leaseMs: number): Promise<boolean> {
  const result = await db.kysely
    .insertInto('named_locks')
    .values({ name, holder, locked_until: now + leaseMs })
    .onConflict((oc) => oc.column('name').doUpdateSet({ holder, locked_until: now + leaseMs }).where('named_locks.locked_until', '<=', now))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function releaseNamedLock(db: Db, name: string, holder: string): Promise<void> {
  await db.kysely.deleteFrom('named_locks').where('name', '=', name).where('holder', '=', holder).execute();
}

export class NamedLockTimeoutError extends Error {
  constructor(readonly lockName: string, waitedMs: number) {
    super(`${lockName} stayed taken for ${waitedMs} ms`);
  }
}

/** Runs `work` while holding the lock; throws NamedLockTimeoutError when it stays taken for `waitMs`. */
export async function withNamedLock<T>(db: Db, clock: Clock, name: string, options: NamedLockOptions, work: () => Promise<T>): Promise<T> {
  const holder = randomBytes(8).toString('hex');
  const started = clock.now();
  while (!(await tryTakeNamedLock(db, name, holder, clock.now(), options.leaseMs))) {
    if (clock.now() - started >= options.waitMs) throw new NamedLockTimeoutError(name, clock.now() - started);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 50));
  }
  try {
    return await work();
  } finally {
    await releaseNamedLock(db, name, holder).catch(() => undefined);
  }
}
