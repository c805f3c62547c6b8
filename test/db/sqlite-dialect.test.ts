// Two connections to one SQLite file (serve's API and its cloud-run thread, or serve and
// `svc worker`): a transaction that reads and then writes must not fail because the other
// connection wrote in between. Transactions begin IMMEDIATE, so they hold the write lock from
// the start: the other connection waits for it (here: gives up after its 100 ms busy timeout)
// instead of making the transaction fail with SQLITE_BUSY_SNAPSHOT.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/database.js';

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
