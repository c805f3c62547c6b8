// Every row of every table, to prove that a refused request changed nothing. Columns that
// legitimately change on requests that are refused later in the handler are left out; the
// rate-limit counters live outside the database (in memory or Redis) and are not compared.
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema.js';

/** Written for every request that passes the key gate, even one the route then refuses. */
const VOLATILE: Record<string, string[]> = { api_keys: ['last_used_at'] };

export type Snapshot = Map<string, string[]>;

function canonical(row: Record<string, unknown>, skip: string[]): string {
  const entries = Object.keys(row)
    .filter((column) => !skip.includes(column))
    .sort()
    .map((column) => {
      const value = row[column];
      // Blobs (code snapshots' zips) by digest; bigints and numbers alike as text.
      if (Buffer.isBuffer(value)) return [column, `sha256:${createHash('sha256').update(value).digest('hex')}`];
      return [column, value === null || value === undefined ? null : String(value)];
    });
  return JSON.stringify(entries);
}

/**
 * The app's tables (Kysely's bookkeeping aside). Only this connection's schema on PostgreSQL:
 * Kysely's introspection lists every schema, and fails when a parallel test file drops one.
 */
export async function tablesOf(db: Kysely<Database>, dialect: DialectName): Promise<string[]> {
  const { rows } =
    dialect === 'postgres'
      ? await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
  return rows.map((row) => row.name).filter((name) => !name.startsWith('kysely_migration')).sort();
}

export async function snapshot(db: Kysely<Database>, tables: string[]): Promise<Snapshot> {
  const loose = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const rows = await Promise.all(tables.map((table) => loose.selectFrom(table).selectAll().execute()));
  return new Map(tables.map((table, i) => [table, rows[i].map((row) => canonical(row, VOLATILE[table] ?? [])).sort()]));
}

/** What differs, table by table (rows only before, rows only after); empty when nothing. */
export function difference(before: Snapshot, after: Snapshot): string[] {
  const lines: string[] = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const a = new Set(before.get(table) ?? []);
    const b = new Set(after.get(table) ?? []);
    const gone = [...a].filter((row) => !b.has(row));
    const added = [...b].filter((row) => !a.has(row));
    for (const row of gone) lines.push(`${table} - ${row.slice(0, 400)}`);
    for (const row of added) lines.push(`${table} + ${row.slice(0, 400)}`);
  }
  return lines;
}
