// Ranked word search with each engine's own text index: SQLite FTS5 (bm25) and PostgreSQL
// full-text search (ts_rank over a weighted tsvector). Callers join the matches as a derived
// table `(doc_id, rank)`, higher rank first, and never see which engine answered.
//
// What must stay true on both engines: a query is its words (runs of letters and digits),
// lower-cased; every word must match (AND); each word also matches as a prefix ("insta"
// finds "instagram"); no stemming, no accent folding, so both engines agree on what matches.
import { type AliasedRawBuilder, sql } from 'kysely';
import type { DialectName } from './database.js';

/** At most this many words count; a longer query is cut (it would only narrow further). */
export const MAX_SEARCH_WORDS = 12;
const MAX_WORD_CHARS = 64;

/** The words of a free-text query, lower-cased, each once, in order. */
export function searchWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.map((word) => word.slice(0, MAX_WORD_CHARS)))].slice(0, MAX_SEARCH_WORDS);
}

export interface FullTextIndex {
  /** SQLite: the FTS5 table whose rowid is the document id, and its bm25 column weights. */
  sqliteTable: string;
  sqliteWeights: readonly number[];
  /** PostgreSQL: the table and its stored, GIN-indexed tsvector column (built with the `simple` configuration). */
  pgTable: string;
  pgColumn: string;
}

export interface TextMatch {
  doc_id: number;
  rank: number;
}

/**
 * The documents matching every word, with their rank, as a derived table to join on the
 * document's id. `words` come from `searchWords` (letters and digits only), so they cannot
 * carry query syntax; they are bound as parameters all the same.
 */
export function textMatches<A extends string>(dialect: DialectName, index: FullTextIndex, words: readonly string[], alias: A): AliasedRawBuilder<TextMatch, A> {
  if (dialect === 'postgres') {
    const query = words.map((word) => `${word}:*`).join(' & ');
    const table = sql.table(index.pgTable);
    const column = sql.ref(index.pgColumn);
    return sql<TextMatch>`(select id as doc_id, ts_rank(${column}, to_tsquery('simple', ${query})) as rank from ${table} where ${column} @@ to_tsquery('simple', ${query}))`.as(alias);
  }
  const query = words.map((word) => `"${word}"*`).join(' ');
  const table = sql.table(index.sqliteTable);
  const weights = sql.join(index.sqliteWeights.map((weight) => sql.lit(weight)));
  // bm25 is lower for better matches; negated so that higher is better on both engines.
  return sql<TextMatch>`(select rowid as doc_id, -bm25(${table}, ${weights}) as rank from ${table} where ${table} match ${query})`.as(alias);
}
