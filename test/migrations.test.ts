// Migrations that land out of name order (parallel work) still apply to a database that
// already ran later ones.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrateToLatest, pendingMigrations } from '../src/db/migrate.js';
import { createTestApp, type TestApp } from './helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test('an earlier-named migration missing from a migrated database is applied, not refused', async () => {
  expect(await pendingMigrations(t.db)).toEqual([]);
  // Make the database look as if it had been migrated before 0003 existed.
  for (const table of ['code_sync_state', 'code_snapshots', 'images']) await sql`drop table ${sql.table(table)}`.execute(t.db.kysely);
  await sql`delete from kysely_migration where name = '0003_code_sync'`.execute(t.db.kysely);
  expect(await pendingMigrations(t.db)).toEqual(['0003_code_sync']);
  expect(await migrateToLatest(t.db)).toEqual(['0003_code_sync']);
  expect(await pendingMigrations(t.db)).toEqual([]);
});
