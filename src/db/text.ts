// Text matching and ordering that behave the same on SQLite and PostgreSQL.
import { type RawBuilder, sql } from 'kysely';
import type { DialectName } from './database.js';

/** Case-insensitive substring match in which `%` and `_` match themselves. */
export function containsInsensitive(column: string, needle: string): RawBuilder<boolean> {
  const escaped = needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<boolean>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '\\'`;
}

/**
 * A case-insensitive sort key with byte order on both engines (PostgreSQL would otherwise
 * use the database's locale, and the two engines would page in different orders).
 */
export function textSortKey(column: string, dialect: DialectName): RawBuilder<string> {
  return dialect === 'postgres' ? sql<string>`lower(${sql.ref(column)}) collate "C"` : sql<string>`lower(${sql.ref(column)})`;
}
