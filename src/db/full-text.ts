// Ranked word search with each engine's own text index: SQLite FTS5 (bm25) and PostgreSQL
// full-text search (ts_rank over a weighted tsvector). Callers filter rows with
// `matchesWords` and rank the few documents they show with `rankDocuments`, higher rank
// first, and never see which engine answered.
//
// What must stay true on both engines: a query is its words (runs of letters and digits),
// lower-cased; every word must match (AND); each word also matches as a prefix ("insta"
// finds "instagram"); no stemming, no accent folding, so both engines agree on what matches.
import { type Kysely, type RawBuilder, sql } from 'kysely';
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

function pgQuery(words: readonly string[]): string {
  return words.map((word) => `${word}:*`).join(' & ');
}

function sqliteQuery(words: readonly string[]): string {
  return words.map((word) => `"${word}"*`).join(' ');
}

/**
 * A condition on a row of the indexed table (`alias.id` is the document id): the document
 * matches every word. PostgreSQL tests the row's own `tsvector` (its GIN index answers it),
 * SQLite asks the FTS5 table for the matching ids. `words` come from `searchWords` (letters
 * and digits only), so they cannot carry query syntax; they are bound as parameters all the
 * same.
 */
export function matchesWords(dialect: DialectName, index: FullTextIndex, words: readonly string[], alias: string, options: { filterOnly?: boolean } = {}): RawBuilder<boolean> {
  if (dialect === 'postgres') return sql<boolean>`${sql.ref(`${alias}.${index.pgColumn}`)} @@ to_tsquery('simple', ${pgQuery(words)})`;
  const table = sql.table(index.sqliteTable);
  // `filterOnly`: SQLite reads the rows in another index's order and checks each id against
  // the matches (read once), instead of looking up every match and sorting them.
  const id = options.filterOnly ? sql`+${sql.ref(`${alias}.id`)}` : sql.ref(`${alias}.id`);
  return sql<boolean>`${id} in (select rowid from ${table} where ${table} match ${sqliteQuery(words)})`;
}

/**
 * A scalar subquery: how many documents match every word, read from the text index alone;
 * with `except` (a subquery of document ids), not counting those. One pass over the matches
 * either way: each match's id is checked against `except`, which suits a short `except`.
 */
export function countMatches(dialect: DialectName, index: FullTextIndex, words: readonly string[], except?: RawBuilder<unknown>): RawBuilder<number> {
  if (dialect === 'postgres') {
    const column = sql.ref(index.pgColumn);
    const less = except ? sql` - count(*) filter (where id in (${except}))` : sql``;
    return sql<number>`(select count(*)${less} from ${sql.table(index.pgTable)} where ${column} @@ to_tsquery('simple', ${pgQuery(words)}))`;
  }
  const table = sql.table(index.sqliteTable);
  const less = except ? sql` - coalesce(sum(+rowid in (${except})), 0)` : sql``;
  return sql<number>`(select count(*)${less} from ${table} where ${table} match ${sqliteQuery(words)})`;
}

/**
 * The rank of a row of the indexed table as an expression, where the engine has one: PostgreSQL
 * (`ts_rank` of the row's own `tsvector`). SQLite answers undefined: bm25 exists only in a
 * query over the FTS5 table itself, so there use `rankDocuments`.
 */
export function rankOfRow(dialect: DialectName, index: FullTextIndex, words: readonly string[], alias: string): RawBuilder<number> | undefined {
  if (dialect !== 'postgres') return undefined;
  return sql<number>`ts_rank(${sql.ref(`${alias}.${index.pgColumn}`)}, to_tsquery('simple', ${pgQuery(words)}))`;
}

/** Ids per ranking statement: well inside both engines' parameter limits. */
export const MAX_RANKED_IDS = 2000;

/**
 * The rank (higher is better) of each of `ids` that matches every word: bm25 on SQLite,
 * `ts_rank` on PostgreSQL. Only these documents are ranked, however many others match: the
 * cost of ranking grows with `ids`, not with the matches (SQLite reads the matches' ids once
 * and scores only the ones asked for).
 */
export async function rankDocuments(db: Kysely<unknown>, dialect: DialectName, index: FullTextIndex, words: readonly string[], ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length > MAX_RANKED_IDS) throw new Error(`rankDocuments ranks at most ${MAX_RANKED_IDS} documents`);
  const ranks = new Map<number, number>();
  if (ids.length === 0) return ranks;
  const list = sql.join(ids.map((id) => sql`${id}`));
  let rows: { doc_id: number | string; rank: number | string }[];
  if (dialect === 'postgres') {
    const column = sql.ref(index.pgColumn);
    rows = (await sql<{ doc_id: number; rank: number }>`select id as doc_id, ts_rank(${column}, to_tsquery('simple', ${pgQuery(words)})) as rank from ${sql.table(index.pgTable)} where id in (${list}) and ${column} @@ to_tsquery('simple', ${pgQuery(words)})`.execute(db)).rows;
  } else {
    const table = sql.table(index.sqliteTable);
    const weights = sql.join(index.sqliteWeights.map((weight) => sql.lit(weight)));
    // `+rowid` keeps the id list a filter on the one pass over the matches: as a rowid
    // constraint, FTS5 would look every id up in the index again. bm25 (lower is better,
    // negated) runs only for the rows the filter lets through. The ids travel as one JSON
    // parameter: a statement of a thousand parameters cost more to build, prepare and bind
    // than the filter itself (measured with bench/marketplace.js).
    rows = (await sql<{ doc_id: number; rank: number }>`select rowid as doc_id, -bm25(${table}, ${weights}) as rank from ${table} where ${table} match ${sqliteQuery(words)} and +rowid in (select value from json_each(${JSON.stringify(ids)}))`.execute(db)).rows;
  }
  for (const row of rows) ranks.set(Number(row.doc_id), Number(row.rank));
  return ranks;
}
