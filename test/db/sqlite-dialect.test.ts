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
import { ImmediateSqliteDialect, STATEMENTS_KEPT } from '../../src/db/sqlite-dialect.js';

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

test('a query made again reuses its prepared statement, keeps up with schema changes and failures, and at most STATEMENTS_KEPT are kept', async () => {
  const database = new SQLite(':memory:');
  const dialect = new ImmediateSqliteDialect({ database, lockWaitMs: 100 });
  const db = new Kysely<{ t: { x: number; y?: string } }>({ dialect });
  const prepared: string[] = [];
  const prepare = database.prepare.bind(database);
  database.prepare = ((source: string) => (prepared.push(source), prepare(source))) as typeof database.prepare;
  try {
    await sql`create table t (x integer primary key)`.execute(db);
    for (const x of [1, 2, 3]) await db.insertInto('t').values({ x }).execute();
    expect(prepared.filter((s) => s.startsWith('insert'))).toHaveLength(1);
    // A failed run (a duplicate key) leaves the statement usable.
    await expect(db.insertInto('t').values({ x: 1 }).execute()).rejects.toThrow(/UNIQUE|PRIMARY/);
    await db.insertInto('t').values({ x: 4 }).execute();
    const all = () => sql<Record<string, unknown>>`select * from t order by x`.execute(db);
    expect((await all()).rows).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }, { x: 4 }]);
    // The kept `select *` sees a column added since it was prepared.
    await sql`alter table t add column y text not null default 'new'`.execute(db);
    expect((await all()).rows[0]).toEqual({ x: 1, y: 'new' });
    expect(prepared.filter((s) => s.startsWith('select'))).toHaveLength(1);
    // Each list length is its own text: the oldest go, the cache stays bounded and still answers.
    for (let n = 1; n <= STATEMENTS_KEPT + 20; n++) {
      const rows = await db.selectFrom('t').select('x').where('x', 'in', Array.from({ length: n }, (_, i) => i + 1)).execute();
      expect(rows).toHaveLength(Math.min(n, 4));
    }
    expect(dialect.statements.size).toBe(STATEMENTS_KEPT);
    // A pragma is prepared each time: SQLite applies it while preparing, so a kept one would not apply again.
    const busyTimeout = () => database.pragma('busy_timeout', { simple: true });
    for (const value of [1000, 2000, 1000, 2000, 2000, 1000]) {
      await sql.raw(`pragma busy_timeout = ${value}`).execute(db);
      expect(busyTimeout()).toBe(value);
    }
    expect(prepared.filter((s) => s.startsWith('pragma'))).toHaveLength(6);
    // Streaming a kept select while nothing else runs on the connection.
    const streamed: number[] = [];
    for await (const row of db.selectFrom('t').select('x').orderBy('x').stream()) streamed.push(row.x);
    expect(streamed).toEqual([1, 2, 3, 4]);
  } finally {
    await db.destroy();
  }
  expect(database.open).toBe(false);
});
