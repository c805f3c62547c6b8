#!/usr/bin/env node
// @ts-check
// The marketplace (issue 22, "Speed"), over HTTP on 127.0.0.1 against the real app from dist/:
//   (a) 100,000 listings: a search page (20 rows and the total) p50 < 30 ms, for words (one
//       common word, two words, a prefix), each order (popular, new, rating, relevance), a
//       tag and a deep page. Listings are written straight into the tables in batches (the
//       engines' text indexes follow them: SQLite's FTS5 through its triggers, PostgreSQL's
//       stored tsvector), from a vocabulary so a word matches from a few hundred to thousands.
//   (b) installing a 5 MiB Python macro p50 < 200 ms: the author syncs a 5 MiB zip (random,
//       so it does not shrink), publishes it, and another person installs it repeatedly.
// The baseline, measured in the same run against the same app: a plain indexed list page,
// GET /api/macros (the caller's macros, 20 rows and the total), for the searches; creating a
// plain macro, POST /api/macros, for the install. Ratios are printed against it.
//
// Usage (after `npm run build`, or `npm run bench:marketplace -- [options]`):
//   node bench/marketplace.js [--engine sqlite|postgres] [--listings N] [--rounds N] [--strict]
//   --engine postgres uses DATABASE_URL and REDIS_URL (local defaults) in a fresh schema and
//   key prefix, removed afterwards. --strict exits 1 when a goal is missed. BENCH_KEEP=1 keeps
//   the seeded database (SQLite file or PostgreSQL schema) for looking at query plans.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { worktreeHash } from '../dist/modules/code-sync/hash.js';
import { zipWorktree } from '../dist/modules/code-sync/worktree.js';
import { benchAppDeps, benchConfig, listenLocally, openBenchEngine, signUpOverHttp, startBenchApp } from './lib/engine.js';
import { benchTarget, checkEngine, cleanupStack, percentile, request, round, runMain } from './lib.js';

const GOALS = { searchP50Ms: 30, installP50Ms: 200 };
const ZIP_BYTES = 5 * 1024 * 1024;
const AUTHORS = 500;
const BATCH = 500;

function options() {
  const { values } = parseArgs({
    options: { engine: { type: 'string', default: 'sqlite' }, listings: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '60' }, strict: { type: 'boolean', default: false } },
  });
  checkEngine(values.engine);
  const listings = Number(values.listings);
  const rounds = Number(values.rounds);
  if (![listings, rounds].every((n) => Number.isInteger(n) && n >= 1)) throw new Error('--listings and --rounds must be whole numbers ≥ 1');
  return { engine: values.engine, listings, rounds, strict: values.strict };
}

// Words drawn with a skewed distribution: the first few are common (thousands of listings),
// the last rare (a few hundred), as real titles are.
const WORDS = (
  'auto farm daily bonus login collect reward quest battle arena inventory sell craft upgrade ' +
  'raid guild chest spin wheel energy refill harvest garden fish mine explore dungeon boss ' +
  'coins gems timer click swipe scroll message reply story like follow share upload photo ' +
  'receipt invoice report backup clean inbox archive alarm weather news music video record ' +
  'stream check order delivery taxi ticket booking hotel flight train bank balance transfer ' +
  'budget steps sleep water habit notes calendar meeting invite survey coupon cart wishlist'
).split(' ');
const TAGS = 'game farming social shopping travel finance health productivity media mail idle rpg puzzle casual utility'.split(' ');

/** A deterministic generator, so both engines get the same listings. */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

async function seedListings(db, count) {
  const random = generator(22);
  const word = () => WORDS[Math.floor(random() ** 1.5 * WORDS.length)];
  const now = Date.now();
  const authors = [];
  for (let start = 0; start < AUTHORS; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, AUTHORS - start) }, (_, i) => ({ email: `author-${start + i}@bench.example`, name: `Author ${start + i}`, password_hash: 'x', created_at: now, disabled_at: null }));
    authors.push(...(await db.kysely.insertInto('users').values(rows).returning('id').execute()).map((r) => r.id));
  }
  for (let start = 0; start < count; start += BATCH) {
    const rows = [];
    const tags = [];
    for (let i = start; i < Math.min(count, start + BATCH); i += 1) {
      const listingTags = [...new Set([TAGS[Math.floor(random() * TAGS.length)], TAGS[Math.floor(random() * TAGS.length)]])];
      const ratingCount = Math.floor(random() * 40);
      tags.push(listingTags);
      rows.push({
        user_id: authors[i % AUTHORS],
        macro_id: null,
        kind: i % 3 === 0 ? 'python' : 'block',
        title: `${word()} ${word()} ${word()} ${i}`,
        summary: Array.from({ length: 6 }, word).join(' '),
        description: '',
        tags: JSON.stringify(listingTags),
        tags_text: listingTags.join(' '),
        visible: i % 50 === 0 ? 0 : 1,
        hidden_at: null,
        hidden_reason: null,
        latest_version: 1,
        installs: Math.floor(random() ** 3 * 10_000),
        rating_sum: Math.round(ratingCount * (2 + random() * 3)),
        rating_count: ratingCount,
        published_at: now - Math.floor(random() * 365 * 86_400_000),
        created_at: now,
        updated_at: now,
      });
    }
    await db.kysely.transaction().execute(async (trx) => {
      const ids = await trx.insertInto('marketplace_listings').values(rows).returning('id').execute();
      await trx.insertInto('marketplace_listing_tags').values(ids.flatMap((row, i) => tags[i].map((tag) => ({ listing_id: row.id, tag })))).execute();
      await trx
        .insertInto('marketplace_versions')
        .values(ids.map((row) => ({ listing_id: row.id, version: 1, notes: null, worktree_hash: null, entry_path: null, size_bytes: null, file_count: null, zip_sha256: null, blocks: '{"version":1,"steps":[{"type":"wait","ms":1}]}', bundle_sha: 'x', args: '{}', image_ids: '[]', published_at: now })))
        .execute();
    });
  }
  // Fresh statistics and a current visibility map, as a database that has been running (and
  // autovacuumed) would have: without the map every count reads the table, not the index.
  if (db.dialect === 'postgres') await sql`vacuum (analyze)`.execute(db.kysely);
  else await sql`analyze`.execute(db.kysely);
}

/** @param {number[]} values */
function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p90: round(percentile(sorted, 90)), max: round(sorted[sorted.length - 1]) };
}

/**
 * Times `n` calls of `call`, after two untimed ones (connections, caches, plans).
 * @param {number} n
 * @param {(i: number) => Promise<unknown>} call
 */
async function timeEach(n, call) {
  for (let i = 0; i < 2; i += 1) await call(-1 - i);
  const times = [];
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    await call(i);
    times.push(performance.now() - started);
  }
  return stats(times);
}

async function main() {
  const opts = options();
  const target = benchTarget(opts.engine, 'marketplace');
  const config = benchConfig(target, { RATE_LIMIT_PER_KEY: '10000000', RATE_LIMIT_PER_ACCOUNT: '10000000' });
  const cleanups = cleanupStack();
  try {
    const { db, redis } = await openBenchEngine(target, { cleanups, keep: process.env.BENCH_KEEP === "1" });
    const seedStarted = performance.now();
    await seedListings(db, opts.listings);
    const seedMs = performance.now() - seedStarted;
    const app = await startBenchApp(benchAppDeps(config, db, redis), cleanups);
    const base = await listenLocally(app);
    const buyer = await signUpOverHttp(base, `buyer-${target.suffix}@example.com`, `pw-${target.suffix}-${target.suffix}`);
    const author = await signUpOverHttp(base, `seller-${target.suffix}@example.com`, `pw-${target.suffix}-${target.suffix}`);
    for (let i = 0; i < 30; i += 1) await request(base, 'POST', '/api/macros', { body: { name: `Mine ${i}`, kind: 'python' }, headers: buyer.auth });

    const loadBefore = loadavg();
    console.log(`Marketplace benchmark: engine=${opts.engine}${redis ? ' (+ Redis)' : ''}, ${opts.listings} listings (seeded in ${(seedMs / 1000).toFixed(1)} s), ${opts.rounds} rounds per case`);
    console.log(`  ${cpus().length} CPUs, node ${process.version}, load average before: ${loadBefore.map((n) => n.toFixed(2)).join(' ')}`);

    const get = (path) => () => request(base, 'GET', path, { headers: buyer.auth });
    const baseline = await timeEach(opts.rounds, get('/api/macros?page=1&page_size=20'));
    const cases = [
      ['popular (default), page 1', '?page_size=20'],
      ['new, page 1', '?sort=new&page_size=20'],
      ['rating, page 1', '?sort=rating&page_size=20'],
      ['popular, page 200', '?page=200&page_size=20'],
      [`q="${WORDS[0]}" (common word), relevance`, `?q=${WORDS[0]}&page_size=20`],
      [`q="${WORDS[0]} ${WORDS[1]}" (two words)`, `?q=${WORDS[0]}+${WORDS[1]}&page_size=20`],
      // Past the 1,000 ranked candidates (decision 0023): a popular-order page over the matches.
      [`q="${WORDS[0]}", relevance, page 60 (past the ranked 1,000)`, `?q=${WORDS[0]}&page=60&page_size=20`],
      [`q="${WORDS[70].slice(0, 3)}" (prefix), rating`, `?q=${WORDS[70].slice(0, 3)}&sort=rating&page_size=20`],
      [`q="${WORDS[5]}", popular`, `?q=${WORDS[5]}&sort=popular&page_size=20`],
      ['tag=puzzle, new', '?tag=puzzle&sort=new&page_size=20'],
    ];
    const searches = [];
    for (const [name, query] of cases) {
      const first = await request(base, 'GET', `/api/marketplace/listings${query}`, { headers: buyer.auth });
      searches.push({ name, total: first.total_rows, ...(await timeEach(opts.rounds, get(`/api/marketplace/listings${query}`))) });
    }

    // (b) A 5 MiB code macro, published, installed again and again.
    const { key } = await request(base, 'POST', '/api/api-keys', { body: { name: 'bench', scopes: ['macros:run'] }, headers: author.auth });
    const macro = await request(base, 'POST', '/api/macros', { body: { name: 'Big bot', kind: 'python' }, headers: author.auth });
    const files = [{ path: 'src/app.py', content: Buffer.from('print("big")\n'), permissions: 0o644 }];
    for (let i = 0; i < 5; i += 1) files.push({ path: `assets/blob_${i}.bin`, content: randomBytes(ZIP_BYTES / 5), permissions: 0o644 });
    const zip = await zipWorktree(files);
    await request(base, 'POST', `/api/macros/${macro.id}/code-snapshot`, { body: { zip_file_base64: zip.toString('base64'), worktree_hash: worktreeHash(files) }, headers: { 'x-api-key': key } });
    const listing = await request(base, 'POST', '/api/marketplace/listings', { body: { macro_id: macro.id, title: 'Big bot', summary: 'Five MiB of code' }, headers: author.auth });
    const createBaseline = await timeEach(opts.rounds, (i) => request(base, 'POST', '/api/macros', { body: { name: `Plain ${i}`, kind: 'python' }, headers: buyer.auth }));
    const install = await timeEach(opts.rounds, () => request(base, 'POST', `/api/marketplace/listings/${listing.id}/install`, { headers: buyer.auth }));
    const loadAfter = loadavg();

    console.log('');
    console.log('| measured | rows matched | p50 | p90 | max | p50 ÷ baseline |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(`| baseline: GET /api/macros, 20 of 30 | 30 | ${baseline.p50} ms | ${baseline.p90} ms | ${baseline.max} ms | 1.00 |`);
    for (const s of searches) console.log(`| search: ${s.name} | ${s.total} | ${s.p50} ms | ${s.p90} ms | ${s.max} ms | ${round(s.p50 / baseline.p50)} |`);
    console.log(`| baseline: POST /api/macros | – | ${createBaseline.p50} ms | ${createBaseline.p90} ms | ${createBaseline.max} ms | 1.00 |`);
    console.log(`| install, ${(zip.length / 1048576).toFixed(2)} MiB zip | – | ${install.p50} ms | ${install.p90} ms | ${install.max} ms | ${round(install.p50 / createBaseline.p50)} |`);
    console.log('');
    const worstSearch = Math.max(...searches.map((s) => s.p50));
    const met = worstSearch < GOALS.searchP50Ms && install.p50 < GOALS.installP50Ms;
    console.log(`load average before: ${loadBefore.map((n) => n.toFixed(2)).join(' ')}; after: ${loadAfter.map((n) => n.toFixed(2)).join(' ')}`);
    console.log(`goals: every search page p50 < ${GOALS.searchP50Ms} ms (worst ${worstSearch} ms), install p50 < ${GOALS.installP50Ms} ms (${install.p50} ms): ${met ? 'MET' : 'MISSED'}`);
    console.log(JSON.stringify({ bench: 'marketplace', engine: opts.engine, listings: opts.listings, rounds: opts.rounds, baseline, searches, createBaseline, install, zip_bytes: zip.length, goal_met: met }));
    if (opts.strict && !met) process.exitCode = 1;
  } finally {
    await cleanups.run();
  }
}

runMain('marketplace.js', main);
