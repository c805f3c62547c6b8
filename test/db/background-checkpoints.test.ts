// SQLite's write-ahead log is folded back into the database file by a thread of the process
// (src/db/background-checkpoints.ts), not by the commit that happens to reach 1000 pages.
// Observable from outside: pages committed through the service's connection reach the file
// itself soon after, though the log is far below SQLite's own threshold and nothing else
// checkpoints; with `checkpoints: 'inline'` they stay in the log.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { START_DELAY_MS, startBackgroundCheckpoints } from '../../src/db/background-checkpoints.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Commits about 100 pages (400 KB) in small transactions, far below the 1000 pages of an inline checkpoint. */
async function writeSomePages(db: ReturnType<typeof openDatabase>): Promise<void> {
  await sql`create table filler (id integer primary key, body text not null)`.execute(db.kysely);
  for (let i = 0; i < 25; i++) await sql`insert into filler (body) values (${'x'.repeat(16_000)})`.execute(db.kysely);
}

/** How many bytes the database file itself grew by, within `ms`, after the writes. */
async function fileGrowth(checkpoints: 'background' | 'inline', ms: number): Promise<number> {
  const file = join(dir, `${checkpoints}.sqlite`);
  const db = openDatabase({ sqliteFile: file, checkpoints });
  try {
    await sql`select 1`.execute(db.kysely);
    const before = statSync(file).size;
    await writeSomePages(db);
    const deadline = Date.now() + ms;
    while (Date.now() < deadline && statSync(file).size - before < 300_000) await sleep(20);
    return statSync(file).size - before;
  } finally {
    await db.close();
  }
}

test('committed pages reach the database file in the background (the thread starts 2 s after the open), with no commit checkpointing', async () => {
  expect(await fileGrowth('background', START_DELAY_MS + 3000)).toBeGreaterThan(300_000);
});

test("with checkpoints 'inline' the same pages stay in the log (SQLite's own threshold is not reached)", async () => {
  expect(await fileGrowth('inline', 500)).toBe(0);
});

test('a thread stopped before its delay is up never starts', async () => {
  const checkpoints = startBackgroundCheckpoints(join(dir, 'never.sqlite'), { delayMs: 50 });
  await checkpoints.stop();
  const outcome = await Promise.race([checkpoints.started.then(() => 'started'), sleep(300).then(() => 'not started')]);
  expect(outcome).toBe('not started');
});

test('a database closed before its checkpoint thread started closes at once and its data is whole', async () => {
  const file = join(dir, 'quick.sqlite');
  const db = openDatabase({ sqliteFile: file });
  await sql`create table t (x integer not null)`.execute(db.kysely);
  await sql`insert into t (x) values (1)`.execute(db.kysely);
  await db.close();
  const again = openDatabase({ sqliteFile: file, checkpoints: 'inline' });
  try {
    expect((await sql<{ x: number }>`select x from t`.execute(again.kysely)).rows).toEqual([{ x: 1 }]);
  } finally {
    await again.close();
  }
});

test('a thread that cannot open its file says so, and stopping it still resolves', async () => {
  const failures: Error[] = [];
  const checkpoints = startBackgroundCheckpoints(join(dir, 'missing', 'none.sqlite'), { delayMs: 0, onFailure: (error) => failures.push(error) });
  await expect(checkpoints.started).rejects.toThrow(/ended before it started/);
  expect(failures.map((e) => e.message).join()).toMatch(/unable to open|directory does not exist|cannot open/i);
  await checkpoints.stop();
});
