// Two connections to one SQLite file (serve's API and its cloud-run thread, or serve and
// `svc worker`): a transaction that reads and then writes must not fail because the other
// connection wrote in between. Transactions begin IMMEDIATE, so they hold the write lock from
// the start: the other connection waits for it (here: gives up after its 100 ms busy timeout)
// instead of making the transaction fail with SQLITE_BUSY_SNAPSHOT. And a transaction that
// waits for the lock waits asynchronously: the thread (for `serve`, the API) goes on meanwhile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { ImmediateSqliteDialect } from '../../src/db/sqlite-dialect.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-sqlite-dialect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a read-then-write transaction commits although another connection tries to write in between', async () => {
  const file = join(dir, 'two.sqlite');
  const a = openDatabase({ sqliteFile: file });
  const b = new SQLite(file, { timeout: 100 });
  try {
    await sql`create table t (x integer not null)`.execute(a.kysely);
    let otherError: unknown;
    await a.kysely.transaction().execute(async (trx) => {
      await sql`select count(*) from t`.execute(trx);
      try {
        b.prepare('insert into t (x) values (2)').run();
      } catch (error) {
        otherError = error;
      }
      await sql`insert into t (x) values (1)`.execute(trx);
    });
    expect((otherError as { code?: string } | undefined)?.code).toBe('SQLITE_BUSY');
    // Once the transaction has committed, the other connection writes as usual.
    b.prepare('insert into t (x) values (3)').run();
    const rows = await sql<{ x: number }>`select x from t order by x`.execute(a.kysely);
    expect(rows.rows.map((r) => r.x)).toEqual([1, 3]);
  } finally {
    b.close();
    await a.close();
  }
});

/** A Kysely on `file` with the dialect under test, waiting at most `lockWaitMs` for the lock. */
function kyselyOn(file: string, lockWaitMs: number) {
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma(`busy_timeout = ${lockWaitMs}`);
  return new Kysely<Record<string, never>>({ dialect: new ImmediateSqliteDialect({ database, lockWaitMs }) });
}

test('waiting for the write lock does not hold up the event loop, and the transaction runs once the lock is free', async () => {
  const file = join(dir, 'wait.sqlite');
  const a = kyselyOn(file, 5000);
  const b = new SQLite(file);
  try {
    await sql`create table t (x integer not null)`.execute(a);
    b.exec('begin immediate');
    b.prepare('insert into t (x) values (2)').run();
    const events: string[] = [];
    // The other connection lets go of its lock from a timer: only a loop that keeps running can fire it.
    setTimeout(() => {
      events.push('other committed');
      b.exec('commit');
    }, 50);
    await a.transaction().execute(async (trx) => {
      events.push('transaction began');
      await sql`insert into t (x) values (1)`.execute(trx);
    });
    expect(events).toEqual(['other committed', 'transaction began']);
    const rows = await sql<{ x: number }>`select x from t order by x`.execute(a);
    expect(rows.rows.map((r) => r.x)).toEqual([1, 2]);
  } finally {
    b.close();
    await a.destroy();
  }
});

test('a lock held past the wait fails the transaction with SQLITE_BUSY, and the connection stays usable', async () => {
  const file = join(dir, 'held.sqlite');
  const a = kyselyOn(file, 150);
  const b = new SQLite(file);
  try {
    await sql`create table t (x integer not null)`.execute(a);
    b.exec('begin immediate');
    const started = Date.now();
    await expect(a.transaction().execute(async (trx) => sql`insert into t (x) values (1)`.execute(trx))).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    b.exec('rollback');
    await a.transaction().execute(async (trx) => sql`insert into t (x) values (3)`.execute(trx));
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(a)).rows[0].n).toBe(1);
  } finally {
    b.close();
    await a.destroy();
  }
});
