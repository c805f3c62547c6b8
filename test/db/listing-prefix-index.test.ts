// Migration 0024 (SQLite): the listings' FTS5 table is made again with prefix indexes. Listings
// written before it are found after it (the table is rebuilt from its content table), its
// triggers still keep it current, FTS5's own integrity check passes, and the search answers
// the same matches for short and long words.
import { afterAll, expect, test } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';

const db = openDatabase({ sqliteFile: ':memory:' });
afterAll(async () => {
  await db.close();
});

async function listing(userId: number, title: string, tags: string[]) {
  await db.kysely
    .insertInto('marketplace_listings')
    .values({ user_id: userId, macro_id: null, kind: 'block', title, summary: 'A macro', description: '', tags: JSON.stringify(tags), tags_text: tags.join(' '), visible: 1, hidden_at: null, hidden_reason: null, latest_version: 1, published_at: 1, created_at: 1, updated_at: 1 })
    .execute();
}

const matches = async (query: string) =>
  (await sql<{ rowid: number }>`select rowid from marketplace_listings_fts where marketplace_listings_fts match ${query} order by rowid`.execute(db.kysely)).rows.map((row) => row.rowid);

test('listings from before the migration are found after it, and new ones too', async () => {
  await migrateUpTo(db, '0023_listing_walk_covering');
  const { id: userId } = await db.kysely
    .insertInto('users')
    .values({ email: 'prefix@example.com', name: null, password_hash: 'x', created_at: 1, disabled_at: null } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await listing(userId, 'Auto farm', ['farming']);
  await listing(userId, 'Collector', ['auto']);
  await listing(userId, 'Sleep timer', ['night']);
  const before = { au: await matches('"au"*'), farm: await matches('"farm"*'), collector: await matches('"collecto"*'), both: await matches('"auto"* "farm"*') };

  await migrateToLatest(db);
  const table = await sql<{ sql: string }>`select sql from sqlite_master where name = 'marketplace_listings_fts'`.execute(db.kysely);
  expect(table.rows[0]?.sql).toContain("prefix='2 3 4'");
  // Same answers for words of 2 and 4 letters (the prefix index) and of 8 (the term lists).
  expect(await matches('"au"*')).toEqual(before.au);
  expect(await matches('"farm"*')).toEqual(before.farm);
  expect(await matches('"collecto"*')).toEqual(before.collector);
  expect(await matches('"auto"* "farm"*')).toEqual(before.both);
  expect(before.au).toEqual([1, 2]);
  expect(before.both).toEqual([1]);

  // The triggers on the listings table write to the new table: an insert, an edit, a delete.
  await listing(userId, 'Autopilot', []);
  expect(await matches('"aut"*')).toEqual([1, 2, 4]);
  await db.kysely.updateTable('marketplace_listings').set({ title: 'Night farm' }).where('id', '=', 3).execute();
  expect(await matches('"farm"*')).toEqual([1, 3]);
  await db.kysely.deleteFrom('marketplace_listings').where('id', '=', 1).execute();
  expect(await matches('"fa"*')).toEqual([3]);
  await sql`insert into marketplace_listings_fts(marketplace_listings_fts, rank) values ('integrity-check', 1)`.execute(db.kysely);
});
