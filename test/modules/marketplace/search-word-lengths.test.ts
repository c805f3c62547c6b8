// Search words of every length find the same listings: one letter (no prefix index), two to
// four (SQLite's prefix indexes, migration 0024), longer ones (the term lists), and words far
// past any index (64 characters, twelve words, other scripts) answer 200 with what matches; a
// NUL character is refused (422); never a 500. Both engines.
import { beforeAll, expect, test } from 'vitest';
import { useAppAndUser } from '../../helpers/app-user.js';
import { blockMacro, call, MARKETPLACE_ENV, publish } from '../../helpers/marketplace.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';
import { searchListings } from '../../../src/modules/marketplace/search.js';

const world = useAppAndUser({ env: MARKETPLACE_ENV });
let other: SignedUpUser;
const ids: Record<string, number> = {};

beforeAll(async () => {
  other = await signUp(world.t.app);
  const listings: [string, string, string[]][] = [
    ['auto', 'Autopilot farming', ['automation']],
    ['farm', 'Farm harvester', ['farming']],
    ['kana', 'ゲーム 自動 farm', ['japan']],
  ];
  for (const [name, title, tags] of listings) {
    const macro = await blockMacro(world.t.app, world.user);
    world.t.clock.advance(1000);
    ids[name] = (await publish(world.t.app, world.user, macro.id, { title, summary: 'A macro for a game', tags })).id;
  }
});

async function found(q: string): Promise<string[]> {
  const res = await call(world.t.app, other, 'GET', `/api/marketplace/listings?q=${encodeURIComponent(q)}&sort=new`);
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json() as { rows: { id: number }[]; total_rows: number };
  expect(page.total_rows).toBe(page.rows.length);
  return page.rows.map((row) => Object.entries(ids).find(([, id]) => id === row.id)?.[0] ?? '?').sort();
}

test('a word of one, two, three, four and more letters finds every listing it begins a word of', async () => {
  expect(await found('a')).toEqual(['auto', 'farm', 'kana']); // "A macro" is in every summary
  expect(await found('au')).toEqual(['auto']);
  expect(await found('far')).toEqual(['auto', 'farm', 'kana']);
  expect(await found('farm')).toEqual(['auto', 'farm', 'kana']);
  expect(await found('farmi')).toEqual(['auto', 'farm']);
  expect(await found('autom')).toEqual(['auto']);
  expect(await found('au farmi')).toEqual(['auto']);
  expect(await found('ゲーム')).toEqual(['kana']);
});

test('past the ranked candidates, a rare word pages in popular order whether or not the walk down the popular order reaches its matches', async () => {
  // Three old listings with the word, then 25 newer ones without it: all have 0 installs, so the
  // popular order is newest first and the word's listings come last. With one ranked candidate,
  // page 2 (PostgreSQL walks 20 listings, finds none, reads every match) and page 3 (it walks
  // 30, which holds all three) must continue the same order.
  const zebras: number[] = [];
  for (const title of ['Zebra one', 'Zebra two', 'Zebra three', ...Array.from({ length: 25 }, (_, i) => `Filler ${i}`)]) {
    const macro = await blockMacro(world.t.app, world.user);
    world.t.clock.advance(1000);
    const { id } = await publish(world.t.app, world.user, macro.id, { title, summary: 'Plain', tags: [] });
    if (title.startsWith('Zebra')) zebras.push(id);
  }
  const ctx = { userId: other.id, keyId: null, sessionId: null, scopes: [], requestId: 'test', clientAddress: null };
  const pages = [];
  for (let page = 1; page <= 4; page++) {
    const res = await searchListings(world.t.db.kysely, world.t.db.dialect, ctx, { q: 'zebra', page, page_size: 1 }, { rankedCandidates: 1 });
    expect(res.total_rows).toBe(3);
    pages.push(...res.rows.map((row) => row.id));
  }
  expect(pages).toEqual([...zebras].reverse());
});

test('words past every index answer 200 with what matches, a NUL 422, never a 500', async () => {
  expect(await found('x'.repeat(64))).toEqual([]);
  expect(await found('farm '.repeat(11) + 'zz')).toEqual([]);
  const nul = await call(world.t.app, other, 'GET', `/api/marketplace/listings?q=${encodeURIComponent('\u0000farm')}`);
  expect(nul.statusCode).toBe(422);
  expect(nul.json().details.errors[0].path).toBe('query.q');
  expect(await found('🙂🙂 farm')).toEqual(['auto', 'farm', 'kana']);
});
