// Column helpers so migrations read the same on both engines.
import type { CreateTableBuilder } from 'kysely';
import { sql } from 'kysely';
import type { DialectName } from './database.js';

/** An auto-incrementing integer primary key named `id`. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Foreign-key column type: ids are bigint on PostgreSQL. */
export function refType(dialect: DialectName) {
  return dialect === 'postgres' ? sql`bigint` : sql`integer`;
}

