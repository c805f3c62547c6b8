// Column helpers so migrations read the same on both engines.
import type { CreateTableBuilder } from 'kysely';
import { type RawBuilder, sql } from 'kysely';
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


/**
 * A CHECK that `column` holds one of `values`, the list the code uses too (core/values.ts).
 * SQL lets a NULL through a CHECK, so nullable columns stay nullable. The values are
 * constants of ours, written as SQL literals: DDL takes no bound parameters.
 */
export function oneOf(column: string, values: readonly (string | number)[]): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;
}
