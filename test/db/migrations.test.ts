// Migrations apply strictly in name order: a fresh database runs them all, in order, and a
// database that lacks an earlier-named one (it ran later ones first) refuses to migrate
// rather than apply it out of order.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrateToLatest, pendingMigrations } from '../../src/db/migrate.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test('a fresh database has run every migration, in name order', async () => {
  expect(await pendingMigrations(t.db)).toEqual([]);
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by timestamp, name`.execute(t.db.kysely);
  const names = rows.map((row) => row.name);
  expect(names.length).toBeGreaterThanOrEqual(6);
  expect(names).toEqual([...names].sort());
  expect(names.slice(0, 6)).toEqual(['0001_accounts', '0002_resources', '0003_code_sync', '0004_webhooks', '0005_proxies', '0006_run_counts']);
});

test('an earlier-named migration missing from a migrated database is refused, not applied out of order', async () => {
  // Make the database look as if it had run 0004 onwards without 0003.
  for (const table of ['code_sync_state', 'code_snapshots', 'images']) await sql`drop table ${sql.table(table)}`.execute(t.db.kysely);
  await sql`delete from kysely_migration where name = '0003_code_sync'`.execute(t.db.kysely);
  expect(await pendingMigrations(t.db)).toEqual(['0003_code_sync']);
  await expect(migrateToLatest(t.db)).rejects.toThrow(/0003_code_sync/);
  // Nothing was applied: the migration is still pending and its tables are still absent.
  expect(await pendingMigrations(t.db)).toEqual(['0003_code_sync']);
  await expect(sql`select count(*) from images`.execute(t.db.kysely)).rejects.toThrow();
});
