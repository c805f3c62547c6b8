// The listing search: visible listings (and the caller's own), filtered by words, tag and
// author, in one of four orders, paged with offsets. Every order ends with the id, so a
// page boundary never falls between rows that tie and paging is stable.
//
// Bounded work per page (docs/marketplace.md "Search", decision 0023):
// - `relevance` ranks at most RANKED_CANDIDATES listings: the first ones of the `popular`
//   order among the matches, re-ordered by text rank. Past them the order is `popular`'s, so
//   ranking never reads every match of a common word, and the order stays one total order.
// - The total is exact. Without words it is every listing (with the tag: every row of the
//   tag's index) less the few the caller may not see, which a partial index lists; with
//   words it is counted over the matches (SQLite: in its FTS5 index alone).
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database, MarketplaceListingsTable } from '../../db/schema.js';
import { countMatches, type FullTextIndex, matchesWords, rankDocuments, rankOfRow, searchWords } from '../../db/full-text.js';
import type { ServiceContext } from '../../core/context.js';
import { offsetOf, type PageRequest, pageOf, pageRequest } from '../../core/paging.js';
import { type ListingRow, presentListings, selectListings } from './present.js';
import type { ListingQueryInput, ListingSort } from './schemas.js';

/** Title and tags weigh most, then the summary (the PostgreSQL column uses the same A/B weights). */
export const LISTING_TEXT_INDEX: FullTextIndex = {
  sqliteTable: 'marketplace_listings_fts',
  sqliteWeights: [10, 4, 10],
  pgTable: 'marketplace_listings',
  pgColumn: 'search',
};

/** How many of the matches, taken in `popular` order, `relevance` ranks by text rank. */
export const RANKED_CANDIDATES = 1000;

/** PostgreSQL: how many listings of the popular order it reads per candidate before reading every match instead. */
const WALKED_PER_CANDIDATE = 10;

/**
 * `rating` orders by the average pulled towards 3 stars by five phantom reviews, so one
 * 5-star review does not outrank a hundred 4.8-star ones.
 */
const RATING_SCORE = sql`(l.rating_sum + 15.0) / (l.rating_count + 5.0)`;

/**
 * Listings nobody but their author may see: hidden by the author or by the operator. Written
 * as migration 0022's partial index `marketplace_listings_unlisted_idx` is, so both engines
 * read that index (SQLite matches a partial index's condition by its terms).
 */
const UNLISTED = sql<boolean>`(l.visible <> 1 or l.hidden_at is not null)`;

type ListingQuery = SelectQueryBuilder<Database & { l: MarketplaceListingsTable }, 'l', object>;

export interface SearchOptions {
  /** RANKED_CANDIDATES unless a test needs a small one. */
  rankedCandidates?: number;
}

interface Search {
  ctx: ServiceContext;
  input: ListingQueryInput;
  words: string[];
}

export async function searchListings(db: Kysely<Database>, dialect: DialectName, ctx: ServiceContext, input: ListingQueryInput, options: SearchOptions = {}) {
  const page = pageRequest(input);
  const words = input.q ? searchWords(input.q) : [];
  const sort: ListingSort = input.sort ?? (words.length > 0 ? 'relevance' : 'popular');
  const search: Search = { ctx, input, words };
  if (sort === 'relevance' && words.length > 0) return relevancePage(db, dialect, search, page, options.rankedCandidates ?? RANKED_CANDIDATES);
  // Without words there is nothing to rank: `relevance` is the popular order.

  let rows = selectListings(db).where(visibleTo(search));
  const filters = filtersOf(dialect, search);
  if (filters) rows = rows.where(filters);
  for (const term of orderOf(sort === 'relevance' ? 'popular' : sort)) rows = rows.orderBy(term);
  // The authors' names follow the page's rows while the count may still be running.
  const [total, items] = await Promise.all([countListings(db, dialect, search), rows.limit(page.pageSize).offset(offsetOf(page)).execute().then((found) => presentListings(db, found))]);
  return pageOf(page, total, items);
}

/** Who sees what: `author=me` the caller's own listings, otherwise the visible ones and the caller's. */
function visibleTo({ ctx, input }: Search) {
  return input.author === 'me' ? sql<boolean>`l.user_id = ${ctx.userId}` : sql<boolean>`(l.user_id = ${ctx.userId} or (l.visible = 1 and l.hidden_at is null))`;
}

/** The tag and word conditions on `l`, or undefined when there are none. */
function filtersOf(dialect: DialectName, { input, words }: Search, options: { filterOnly?: boolean } = {}) {
  const parts = [];
  if (input.tag) parts.push(hasTag(input.tag));
  if (words.length > 0) parts.push(matchesWords(dialect, LISTING_TEXT_INDEX, words, 'l', options));
  return parts.length === 0 ? undefined : sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

const hasTag = (tag: string) => sql<boolean>`exists (select 1 from marketplace_listing_tags t where t.listing_id = l.id and t.tag = ${tag})`;

/**
 * PostgreSQL: the first `limit` listings of the popular order the caller sees (with the tag),
 * with their text, for a walk that tests their words (the candidates, and pages past them).
 */
function popularHead(search: Search, limit: number) {
  const tag = search.input.tag ? hasTag(search.input.tag) : sql<boolean>`true`;
  return sql`select l.id, l.installs, l.search from marketplace_listings l where ${visibleTo(search)} and ${tag} order by l.installs desc, l.id desc limit ${limit}`;
}

function where(query: ListingQuery, conditions: ReturnType<typeof visibleTo | typeof filtersOf>[]): ListingQuery {
  let result = query;
  for (const condition of conditions) if (condition) result = result.where(condition);
  return result;
}

/** The order's terms, ending with the id so that no two rows tie. */
function orderOf(sort: Exclude<ListingSort, 'relevance'>) {
  if (sort === 'new') return [sql`l.published_at desc`, sql`l.id desc`];
  if (sort === 'rating') return [sql`${RATING_SCORE} desc`, sql`l.rating_count desc`, sql`l.id desc`];
  return [sql`l.installs desc`, sql`l.id desc`];
}

/** The exact number of listings the search finds (see the file's head for how it stays cheap). */
async function countListings(db: Kysely<Database>, dialect: DialectName, search: Search): Promise<number> {
  const { input, words, ctx } = search;
  const listings = db.selectFrom('marketplace_listings as l');
  const count = sql<number | string>`count(*)`.as('total');
  // The caller's own listings; or words on PostgreSQL (one pass over the matches' rows, which
  // it reads anyway to test each one's text); or words and a tag together.
  if (input.author === 'me' || (words.length > 0 && (dialect === 'postgres' || input.tag))) {
    const row = await where(listings, [visibleTo(search), filtersOf(dialect, search)]).select(count).executeTakeFirstOrThrow();
    return Number(row.total);
  }
  // Every listing, every row of the tag's index, or every match of the text index (SQLite
  // reads only its index for that), less those hidden from the caller: a partial index
  // lists them.
  const hidden = where(listings, [UNLISTED, sql<boolean>`l.user_id <> ${ctx.userId}`]);
  if (words.length > 0 && !input.tag) {
    // One pass over the FTS5 matches counts them and the hidden ones among them.
    const { rows } = await sql<{ total: number | string }>`select ${countMatches(dialect, LISTING_TEXT_INDEX, words, sql`${hidden.select('l.id')}`)} as total`.execute(db);
    return Number(rows[0]?.total ?? 0);
  }
  const all = input.tag
    ? sql`(${db.selectFrom('marketplace_listing_tags').where('tag', '=', input.tag).select(count)})`
    : sql`(${db.selectFrom('marketplace_listings').select(count)})`;
  const unseen = sql`(${where(hidden, [filtersOf(dialect, search)]).select(count)})`;
  const { rows } = await sql<{ total: number | string }>`select ${all} - ${unseen} as total`.execute(db);
  return Number(rows[0]?.total ?? 0);
}

/**
 * The first `cap` matches in `popular` order, with their installs. SQLite walks the installs
 * index and checks each id against the matches (read once). PostgreSQL cannot tell how many
 * listings a word matches (its estimate for a prefix is the same for every word), so it first
 * walks the first `WALKED_PER_CANDIDATE × cap` listings of the popular order and tests their
 * text, which finds `cap` matches when the words match one listing in ten or more; otherwise
 * it reads every match and keeps the `cap` most installed. Either way the answer is the same
 * listings.
 */
async function candidates(db: Kysely<Database>, dialect: DialectName, search: Search, cap: number): Promise<Candidate[]> {
  const rank = rankOfRow(dialect, LISTING_TEXT_INDEX, search.words, 'c');
  if (rank) {
    // PostgreSQL ranks the candidates in the same statement, from the rows it has just read.
    const tag = search.input.tag ? hasTag(search.input.tag) : sql<boolean>`true`;
    const text = matchesWords(dialect, LISTING_TEXT_INDEX, search.words, 'l');
    const walked = await sql<CandidateRow>`select c.id, c.installs, ${rank} as rank from (
        select w.id, w.installs, w.search from (${popularHead(search, WALKED_PER_CANDIDATE * cap)}) w
        where ${matchesWords(dialect, LISTING_TEXT_INDEX, search.words, 'w')} order by w.installs desc, w.id desc limit ${cap}) c`.execute(db);
    if (walked.rows.length === cap) return walked.rows.map(candidateOf);
    const all = await sql<CandidateRow>`select c.id, c.installs, ${rank} as rank from (
        select l.id, l.installs, l.search from marketplace_listings l where ${visibleTo(search)} and ${tag} and ${text}
        order by l.installs desc, l.id desc limit ${cap}) c`.execute(db);
    return all.rows.map(candidateOf);
  }
  const rows = await where(db.selectFrom('marketplace_listings as l'), [visibleTo(search), filtersOf(dialect, search, { filterOnly: true })])
    .select(['l.id', 'l.installs'])
    .orderBy('l.installs', 'desc')
    .orderBy('l.id', 'desc')
    .limit(cap)
    .execute();
  const ranks = await rankDocuments(db as Kysely<unknown>, dialect, LISTING_TEXT_INDEX, search.words, rows.map((row) => row.id));
  return rows.map((row) => candidateOf({ ...row, rank: ranks.get(row.id) ?? 0 }));
}

/**
 * PostgreSQL, a page of matches in `popular` order past the ranked candidates: found, like the
 * candidates, by walking the first `WALKED_PER_CANDIDATE × (from + count)` listings of the
 * popular order and testing their text; undefined when that walk holds fewer matches than the
 * page needs (the words are rarer than one listing in ten), and the caller reads every match.
 * When the walk holds them, they are the same listings: the walk is the same order's head.
 */
async function walkedMatches(db: Kysely<Database>, search: Search, from: number, count: number): Promise<number[] | undefined> {
  const { rows } = await sql<{ id: number | string }>`select w.id from (${popularHead(search, WALKED_PER_CANDIDATE * (from + count))}) w
    where ${matchesWords('postgres', LISTING_TEXT_INDEX, search.words, 'w')} order by w.installs desc, w.id desc limit ${count} offset ${from}`.execute(db);
  return rows.length === count ? rows.map((row) => Number(row.id)) : undefined;
}

interface CandidateRow {
  id: number | string;
  installs: number | string;
  rank: number | string;
}
interface Candidate {
  id: number;
  installs: number;
  rank: number;
}
const candidateOf = (row: CandidateRow): Candidate => ({ id: Number(row.id), installs: Number(row.installs), rank: Number(row.rank) });

/**
 * `relevance`: the first `cap` matches in `popular` order, ordered by text rank (then
 * installs, then id); the matches after them in `popular` order. One total order over the
 * matches, so pages neither repeat nor skip a listing.
 */
async function relevancePage(db: Kysely<Database>, dialect: DialectName, search: Search, page: PageRequest, cap: number) {
  const offset = offsetOf(page);
  const [total, ranked] = await Promise.all([countListings(db, dialect, search), offset < cap ? candidates(db, dialect, search, cap) : []]);
  const end = Math.min(offset + page.pageSize, total);
  if (offset >= end) return pageOf(page, total, []);
  const matches = () => where(db.selectFrom('marketplace_listings as l'), [visibleTo(search), filtersOf(dialect, search, { filterOnly: true })]);

  const ids: number[] = [];
  if (ranked.length > 0) {
    ranked.sort((a, b) => b.rank - a.rank || b.installs - a.installs || b.id - a.id);
    ids.push(...ranked.slice(offset, Math.min(end, cap)).map((row) => row.id));
  }
  if (end > cap) {
    const from = Math.max(offset, cap);
    const walked = dialect === 'postgres' ? await walkedMatches(db, search, from, end - from) : undefined;
    const rest = walked ?? (await matches().select('l.id').orderBy('l.installs', 'desc').orderBy('l.id', 'desc').limit(end - from).offset(from).execute()).map((row) => Number(row.id));
    ids.push(...rest);
  }
  const rows = ids.length === 0 ? [] : await selectListings(db).where('l.id', 'in', ids).execute();
  const byId = new Map<number, ListingRow>(rows.map((row) => [Number(row.id), row]));
  const inOrder = ids.map((id) => byId.get(id)).filter((row): row is ListingRow => row !== undefined);
  return pageOf(page, total, await presentListings(db, inOrder));
}
