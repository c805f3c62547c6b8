// Search: words in title, summary and tags, case-insensitive, every word required, prefixes,
// ranked by relevance; the popular, new and rating orders; tag and author filters; stable
// paging; hidden listings only for their author. Runs on both engines' own text index.
import { beforeAll, describe, expect, test } from 'vitest';
import { useAppAndUser } from '../../helpers/app-user.js';
import { blockMacro, call, install, MARKETPLACE_ENV, publish } from '../../helpers/marketplace.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';
import type { ServiceContext } from '../../../src/core/context.js';
import { searchListings } from '../../../src/modules/marketplace/search.js';

const world = useAppAndUser({ env: MARKETPLACE_ENV });
let author: SignedUpUser;
let other: SignedUpUser;
const ids: Record<string, number> = {};

async function listing(name: string, title: string, summary: string, tags: string[]) {
  const macro = await blockMacro(world.t.app, author);
  world.t.clock.advance(1000);
  ids[name] = (await publish(world.t.app, author, macro.id, { title, summary, tags })).id;
}

const search = async (query: string, user = other) => {
  const res = await call(world.t.app, user, 'GET', `/api/marketplace/listings?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const titlesOf = (page: { rows: { id: number }[] }) => page.rows.map((row) => Object.entries(ids).find(([, id]) => id === row.id)?.[0]);

beforeAll(async () => {
  author = world.user;
  other = await signUp(world.t.app);
  await listing('farm', 'Farm Harvester', 'Harvests every crop in the idle farm game', ['farm', 'idle-game']);
  await listing('fishing', 'Fishing helper', 'Casts the line and waits; works with the farm game too', ['fishing']);
  await listing('login', 'Instagram login', 'Signs in to Instagram with a profile', ['social']);
  await listing('tagged', 'Quiet tool', 'Nothing to see in this text', ['farm']);
  await listing('hidden', 'Farm secret', 'A farm listing its author hid', ['farm']);
  await call(world.t.app, author, 'PUT', `/api/marketplace/listings/${ids.hidden}`, { visible: false });
  // Popularity: login 3 installs, fishing 1.
  for (let i = 0; i < 3; i++) await install(world.t.app, other, ids.login);
  await install(world.t.app, other, ids.fishing);
  // Ratings: farm has one 5; tagged has many 4s, which the weighted order puts first.
  await call(world.t.app, other, 'PUT', `/api/marketplace/listings/${ids.farm}/review`, { stars: 5 });
  for (let i = 0; i < 6; i++) {
    const reviewer = await signUp(world.t.app);
    await call(world.t.app, reviewer, 'PUT', `/api/marketplace/listings/${ids.tagged}/review`, { stars: 5 });
  }
});

describe('words', () => {
  test('match title, summary and tags, case-insensitively, ranked with title and tag matches first', async () => {
    expect(titlesOf(await search('q=FARM'))).toEqual(['farm', 'tagged', 'fishing']);
  });

  test('every word must match, and a word matches as a prefix', async () => {
    expect(titlesOf(await search('q=farm%20fish'))).toEqual(['fishing']);
    expect(titlesOf(await search('q=insta'))).toEqual(['login']);
    expect(titlesOf(await search('q=idle-game'))).toEqual(['farm']);
  });

  test('query syntax of either engine is only words: quotes, operators and stars match nothing special', async () => {
    for (const q of ['"farm', 'farm OR login', 'farm*', 'NEAR(farm login)', "farm' & !", '-farm', 'title:farm']) {
      const page = await search(`q=${encodeURIComponent(q)}`);
      expect(page.rows.length, q).toBeLessThanOrEqual(3);
    }
    expect((await search('q=%22%2A%27')).total_rows).toBe(5 - 1);
  });

  test('no match answers an empty page with the right totals', async () => {
    expect(await search('q=zebra')).toEqual({ page: 1, page_size: 50, total_rows: 0, total_pages: 0, rows: [] });
  });
});

describe('orders', () => {
  test('popular (the default) orders by installs, newest id first among ties', async () => {
    expect(titlesOf(await search(''))).toEqual(['login', 'fishing', 'tagged', 'farm']);
  });

  test('new orders by the latest publication', async () => {
    expect(titlesOf(await search('sort=new'))).toEqual(['tagged', 'login', 'fishing', 'farm']);
  });

  test('rating weighs the count: six fives beat one five', async () => {
    const page = await search('sort=rating');
    expect(titlesOf(page).slice(0, 2)).toEqual(['tagged', 'farm']);
    expect(page.rows[0].rating).toEqual({ average: 5, count: 6 });
  });

  test('an explicit sort applies to a word search too', async () => {
    expect(titlesOf(await search('q=farm&sort=new'))).toEqual(['tagged', 'fishing', 'farm']);
  });
});

describe('filters and paging', () => {
  test('tag filters by exact tag; author=me shows my own, hidden ones included', async () => {
    expect(titlesOf(await search('tag=farm'))).toEqual(['tagged', 'farm']);
    expect(titlesOf(await search('author=me', author)).sort()).toEqual(['farm', 'fishing', 'hidden', 'login', 'tagged']);
    expect(await search('author=me')).toMatchObject({ total_rows: 0 });
  });

  test("the author sees their hidden listing in a search; nobody else does", async () => {
    expect(titlesOf(await search('q=secret', author))).toEqual(['hidden']);
    expect(titlesOf(await search('q=secret'))).toEqual([]);
  });

  test('pages partition the ordered list, with no row twice and none lost', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await search(`page=${page}&page_size=2&sort=new`);
      expect(res).toMatchObject({ total_rows: 4, total_pages: 2 });
      seen.push(...res.rows.map((row: { id: number }) => row.id));
    }
    expect(seen).toEqual((await search('sort=new')).rows.map((row: { id: number }) => row.id));
  });

  test.each([['sort=cheap'], ['page=0'], ['page_size=201'], ['tag=Bad%20Tag'], ['author=you'], [`q=${'x'.repeat(201)}`], ['unknown=1']])('%s answers 422', async (query) => {
    const res = await call(world.t.app, other, 'GET', `/api/marketplace/listings?${query}`);
    expect(res.statusCode).toBe(422);
  });
});

describe('totals', () => {
  test('count exactly what the caller may see: their own hidden listing, and nobody else\'s', async () => {
    for (const [query, mine, others] of [
      ['', 5, 4],
      ['tag=farm', 3, 2],
      ['q=farm', 4, 3],
      ['q=farm&tag=farm', 3, 2],
      ['q=farm&sort=popular', 4, 3],
    ] as const) {
      expect((await search(query, author)).total_rows, `${query} (author)`).toBe(mine);
      expect((await search(query, other)).total_rows, `${query} (other)`).toBe(others);
    }
  });
});

describe('relevance ranks a capped set of candidates', () => {
  const ctxOf = (user: SignedUpUser): ServiceContext => ({ userId: user.id, keyId: null, sessionId: null, scopes: [], requestId: 'test', clientAddress: null });
  const ranked = (query: { q: string; page?: number; page_size?: number }, cap: number) =>
    searchListings(world.t.db.kysely, world.t.db.dialect, ctxOf(other), query, { rankedCandidates: cap });

  test('the cap most installed matches are ordered by text rank, the others follow in popular order', async () => {
    // Uncapped: title and tag matches first (farm, tagged), then the summary match (fishing).
    expect(titlesOf(await ranked({ q: 'farm' }, 1000))).toEqual(['farm', 'tagged', 'fishing']);
    // Capped at 2: the candidates are the two most installed matches (fishing, then tagged by
    // the newer id); ranked, the tag match comes first; farm, past the cap, follows.
    expect(titlesOf(await ranked({ q: 'farm' }, 2))).toEqual(['tagged', 'fishing', 'farm']);
    // Capped at 1: only fishing is a candidate; the rest keep the popular order.
    expect(titlesOf(await ranked({ q: 'farm' }, 1))).toEqual(['fishing', 'tagged', 'farm']);
  });

  test.each([
    [1, 1],
    [1, 2],
    [2, 1],
    [2, 2],
    [3, 2],
  ])('pages (cap %i, page size %i) partition the order across the cap, each with the true total', async (cap, pageSize) => {
    const whole = (await ranked({ q: 'farm', page_size: 50 }, cap)).rows.map((row) => row.id);
    expect(whole).toHaveLength(3);
    const seen: number[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await ranked({ q: 'farm', page, page_size: pageSize }, cap);
      expect(res).toMatchObject({ total_rows: 3, total_pages: Math.ceil(3 / pageSize) });
      seen.push(...res.rows.map((row) => row.id));
    }
    expect(seen).toEqual(whole);
  });
});
