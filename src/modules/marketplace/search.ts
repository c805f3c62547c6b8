// The listing search: visible listings (and the caller's own), filtered by words, tag and
// author, in one of four orders, paged with offsets. Every order ends with the id, so a
// page boundary never falls between rows that tie and paging is stable.
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { type FullTextIndex, searchWords, textMatches } from '../../db/full-text.js';
import type { ServiceContext } from '../../core/context.js';
import { offsetOf, pageOf, pageRequest } from '../../core/paging.js';
import { presentListing } from './present.js';
import type { ListingQueryInput, ListingSort } from './schemas.js';

/** Title and tags weigh most, then the summary (the PostgreSQL column uses the same A/B weights). */
export const LISTING_TEXT_INDEX: FullTextIndex = {
  sqliteTable: 'marketplace_listings_fts',
  sqliteWeights: [10, 4, 10],
  pgTable: 'marketplace_listings',
  pgColumn: 'search',
};

/**
 * `rating` orders by the average pulled towards 3 stars by five phantom reviews, so one
 * 5-star review does not outrank a hundred 4.8-star ones.
 */
const RATING_SCORE = sql`(l.rating_sum + 15.0) / (l.rating_count + 5.0)`;

export async function searchListings(db: Kysely<Database>, dialect: DialectName, ctx: ServiceContext, input: ListingQueryInput) {
  const page = pageRequest(input);
  const words = input.q ? searchWords(input.q) : [];
  const sort: ListingSort = input.sort ?? (words.length > 0 ? 'relevance' : 'popular');

  let query = db
    .selectFrom('marketplace_listings as l')
    .where((eb) =>
      input.author === 'me' ? eb('l.user_id', '=', ctx.userId) : eb.or([eb('l.user_id', '=', ctx.userId), eb.and([eb('l.visible', '=', 1), eb('l.hidden_at', 'is', null)])]),
    );
  if (input.tag) {
    const tag = input.tag;
    query = query.where(({ exists, selectFrom }) =>
      exists(selectFrom('marketplace_listing_tags as t').select('t.listing_id').whereRef('t.listing_id', '=', 'l.id').where('t.tag', '=', tag)),
    );
  }
  const matched = words.length > 0 ? query.innerJoin(textMatches(dialect, LISTING_TEXT_INDEX, words, 'm'), (join) => join.onRef('m.doc_id', '=', 'l.id')) : undefined;

  const base = matched ?? query;
  // The author's name is joined for the page's rows only: the count needs no user (every
  // listing has one), and joining 100,000 of them only to count was most of a page's time.
  let rows = base.innerJoin('users as u', 'u.id', 'l.user_id').selectAll('l').select('u.name as author_name');
  if (sort === 'relevance' && matched) rows = rows.orderBy(sql`m.rank`, 'desc').orderBy('l.installs', 'desc');
  else if (sort === 'new') rows = rows.orderBy('l.published_at', 'desc');
  else if (sort === 'rating') rows = rows.orderBy(RATING_SCORE, 'desc').orderBy('l.rating_count', 'desc');
  else rows = rows.orderBy('l.installs', 'desc');
  rows = rows.orderBy('l.id', 'desc');

  const [{ total }, found] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    rows.limit(page.pageSize).offset(offsetOf(page)).execute(),
  ]);
  return pageOf(page, Number(total), found.map(presentListing));
}
