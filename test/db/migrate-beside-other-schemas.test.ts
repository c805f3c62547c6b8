// Migrating while other processes create and drop schemas in the same PostgreSQL database (as
// parallel test files and other apps do): the migrator looks only at its own schema, so a
// schema vanishing mid-listing does not fail it. Kysely's own introspection listed every
// schema's tables and columns and failed with 42P01, 3F000 or 42703 (seen in CI).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, test } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest, pendingMigrations } from '../../src/db/migrate.js';
import { TEST_DATABASE_URL } from '../helpers/engine.js';

test.skipIf(!TEST_DATABASE_URL)('five fresh schemas migrate while others are created and dropped beside them', async () => {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  const suffix = randomBytes(4).toString('hex');
  const ours = Array.from({ length: 5 }, (_, i) => `t_mig_${suffix}_${i}`);
  let churning = true;
  const churn = (async () => {
    for (let i = 0; churning; i += 1) {
      const other = `t_churn_${suffix}_${i}`;
      await admin.query(`create schema ${other}; create table ${other}.a (id int, b text); create table ${other}.c (id int)`);
      await admin.query(`drop schema ${other} cascade`);
    }
  })();
  try {
    for (const schema of ours) await admin.query(`create schema ${schema}`);
    const dbs = ours.map((schema) => openDatabase({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema, poolSize: 2 }));
    try {
      const applied = await Promise.all(dbs.map((db) => migrateToLatest(db)));
      for (const names of applied) expect(names[0]).toBe('0001_accounts');
      for (const db of dbs) expect(await pendingMigrations(db)).toEqual([]);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  } finally {
    churning = false;
    await churn;
    for (const schema of ours) await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  }
});
