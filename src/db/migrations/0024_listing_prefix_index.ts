// SQLite only: the listings' FTS5 table gets prefix indexes for 2, 3 and 4 characters. Every
// search word also matches as a prefix (full-text.ts), and a short word is both the common
// case of a search box and the costly one: FTS5 answers `"auto"*` by merging the lists of
// every term that starts with it, once per pass, and a relevance page makes three passes
// (count, candidates, rank: decision 0023). With the prefix index a word of 2–4 characters is
// one list. Measured at 100,000 listings (bench/marketplace.js, docs/PERFORMANCE.md): the
// three passes of `auto farm` went from 28 to 16 ms; a longer word (`collect`) is unchanged.
// The cost is space: the text index grows about 3.7 times (5.6 to 20.6 MB at 100,000
// listings). FTS5 cannot change a table's options, so the table is made again and rebuilt from
// the listings (its content table); the triggers that keep it current name it and stay valid.
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';

export function listingPrefixIndex(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      await sql`drop table marketplace_listings_fts`.execute(db);
      await sql`create virtual table marketplace_listings_fts using fts5(title, summary, tags_text, content='marketplace_listings', content_rowid='id', tokenize='unicode61 remove_diacritics 0', prefix='2 3 4')`.execute(db);
      await sql`insert into marketplace_listings_fts(marketplace_listings_fts) values ('rebuild')`.execute(db);
    },
  };
}
