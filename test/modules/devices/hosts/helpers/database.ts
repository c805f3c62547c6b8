// A fresh database for device-host tests, on the engine of this run (a SQLite file, so a
// second connection can share it, or a new PostgreSQL schema), with a user to own devices.
// `connect()` opens another connection to the same data, as another process would.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Db, openDatabase } from '../../../../../src/db/database.js';
import { migrateToLatest } from '../../../../../src/db/migrate.js';
import { TEST_DATABASE_URL } from '../../../../helpers/engine.js';

export interface HostTestDb {
  db: Db;
  userId: number;
  /** Another connection to the same database (another process's view). */
  connect(): Db;
  /** A stopped cloud device row, as POST /api/hosted/devices makes. */
  createDevice(name?: string): Promise<number>;
  close(): Promise<void>;
}

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function openHostTestDb(): Promise<HostTestDb> {
  const schema = TEST_DATABASE_URL ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const dir = TEST_DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'svc-hosts-'));
  if (schema) await onServer(`create schema ${schema}`);
  const connections: Db[] = [];
  const connect = () => {
    const db = openDatabase({ databaseUrl: TEST_DATABASE_URL, sqliteFile: dir ? join(dir, 'test.sqlite') : undefined, pgSchema: schema, poolSize: 4 });
    connections.push(db);
    return db;
  };
  const db = connect();
  await migrateToLatest(db);
  const now = Date.now();
  const user = await db.kysely
    .insertInto('users')
    .values({ email: `hosts-${randomBytes(4).toString('hex')}@example.com`, name: 'Host tester', password_hash: 'x', created_at: now, disabled_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    db,
    userId: user.id,
    connect,
    async createDevice(name = 'Cloud phone') {
      const row = await db.kysely
        .insertInto('devices')
        .values({ user_id: user.id, name, port: null, is_hosted: 1, hosted_state: 'stopped', group_id: null, macro_id: null, profile_id: null, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async close() {
      for (const connection of connections) await connection.close();
      if (schema) await onServer(`drop schema if exists ${schema} cascade`);
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
