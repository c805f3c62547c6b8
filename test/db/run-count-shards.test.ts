// Run counts kept in shards (migration 0020): the counts a database had before the migration
// survive it, and an account's concurrent changes (each in its own transaction, on separate
// connections on PostgreSQL) all land in the sum, whichever shard they moved.
import { afterAll, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import { countRun, RUN_COUNT_SHARDS, storedRunCount } from '../../src/modules/executions/run-counts.js';
import { dropStorage, newStorage } from '../helpers/app.js';
import { TEST_DATABASE_URL } from '../helpers/engine.js';
import pg from 'pg';

const storage = newStorage();
let db: Db | undefined;
afterAll(async () => {
  await db?.close();
  await dropStorage(storage);
});

test('counts survive the migration, and concurrent changes all land in the sum', async () => {
  if (storage.pgSchema) {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`create schema ${storage.pgSchema}`);
    await client.end();
  }
  db = openDatabase({ databaseUrl: TEST_DATABASE_URL, sqliteFile: ':memory:', pgSchema: storage.pgSchema, poolSize: 8 });
  await migrateUpTo(db, '0018_authoring');
  const { id: userId } = await db.kysely
    .insertInto('users')
    .values({ email: 'counts@example.com', name: null, password_hash: 'x', created_at: 1, disabled_at: null } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  // Before 0021 the table has no shard column: one row per (user, status).
  await db.kysely.insertInto('run_counts').values([{ user_id: userId, status: 'completed', n: 7 } as never, { user_id: userId, status: 'running', n: 2 } as never]).execute();

  await migrateToLatest(db);
  expect(await storedRunCount(db.kysely, userId)).toBe(9);
  expect(await storedRunCount(db.kysely, userId, 'completed')).toBe(7);

  // 40 runs start and 10 of them end, each change in its own transaction, all at once.
  const open = db;
  await Promise.all([
    ...Array.from({ length: 40 }, () => open.kysely.transaction().execute((trx) => countRun(trx, userId, 'running', 1))),
    ...Array.from({ length: 10 }, () =>
      open.kysely.transaction().execute(async (trx) => {
        await countRun(trx, userId, 'running', -1);
        await countRun(trx, userId, 'failed', 1);
      }),
    ),
  ]);
  expect(await storedRunCount(db.kysely, userId, 'running')).toBe(2 + 40 - 10);
  expect(await storedRunCount(db.kysely, userId, 'failed')).toBe(10);
  expect(await storedRunCount(db.kysely, userId)).toBe(9 + 40);
  const rows = await db.kysely.selectFrom('run_counts').select(['status', 'shard']).where('user_id', '=', userId).execute();
  expect(rows.every((row) => row.shard >= 0 && row.shard < RUN_COUNT_SHARDS)).toBe(true);
  expect(new Set(rows.filter((row) => row.status === 'running').map((row) => row.shard)).size).toBeGreaterThan(1);
});
