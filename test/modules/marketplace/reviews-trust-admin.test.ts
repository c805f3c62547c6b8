// Reviews (one per person and listing, editable, never by the author, the average kept in
// step), trust figures from runs of installed copies over the last 30 days, and the
// operator's list and hide.
import { beforeAll, describe, expect, test } from 'vitest';
import { runOutcomesOf } from '../../../src/modules/executions/index.js';
import { useAppAndUser } from '../../helpers/app-user.js';
import { adminAuth, blockMacro, call, install, MARKETPLACE_ENV, publish } from '../../helpers/marketplace.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';

const world = useAppAndUser({ env: MARKETPLACE_ENV });
let author: SignedUpUser;
let listingId: number;
beforeAll(async () => {
  author = world.user;
  listingId = (await publish(world.t.app, author, (await blockMacro(world.t.app, author)).id)).id;
});

const review = (user: SignedUpUser, payload: object, id = listingId) => call(world.t.app, user, 'PUT', `/api/marketplace/listings/${id}/review`, payload);
const rating = async () => (await call(world.t.app, author, 'GET', `/api/marketplace/listings/${listingId}`)).json().rating;

describe('reviews', () => {
  test('one per person: writing again changes it, and the average follows', async () => {
    const a = await signUp(world.t.app);
    const b = await signUp(world.t.app);
    const first = await review(a, { stars: 2, text: 'Crashed once' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ listing_id: listingId, author: { id: a.id }, stars: 2, text: 'Crashed once' });
    await review(b, { stars: 5 });
    expect(await rating()).toEqual({ average: 3.5, count: 2 });
    world.t.clock.advance(1000);
    const edited = await review(a, { stars: 4, text: 'Fixed in v2' });
    expect(edited.json().id).toBe(first.json().id);
    expect(await rating()).toEqual({ average: 4.5, count: 2 });
    const page = await call(world.t.app, author, 'GET', `/api/marketplace/listings/${listingId}/reviews?page_size=1`);
    expect(page.json()).toMatchObject({ total_rows: 2, total_pages: 2, rows: [{ author: { id: a.id }, text: 'Fixed in v2' }] });
  });

  test("the author cannot review their own listing (403 own_listing)", async () => {
    const res = await review(author, { stars: 5 });
    expect(res.statusCode).toBe(403);
    expect(res.json().details.code).toBe('own_listing');
  });

  test.each([[{ stars: 0 }], [{ stars: 6 }], [{ stars: 4.5 }], [{ stars: '5' }], [{}], [{ stars: 3, text: 'x'.repeat(2001) }], [{ stars: 3, extra: 1 }]])('%j answers 422 and changes nothing', async (payload) => {
    const before = await rating();
    const res = await review(await signUp(world.t.app), payload);
    expect(res.statusCode).toBe(422);
    expect(await rating()).toEqual(before);
  });

  test('concurrent first reviews by many people all count', async () => {
    const fresh = (await publish(world.t.app, author, (await blockMacro(world.t.app, author)).id)).id;
    const users = await Promise.all(Array.from({ length: 6 }, () => signUp(world.t.app)));
    const answers = await Promise.all(users.map((user, i) => review(user, { stars: (i % 5) + 1 }, fresh)));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(6).fill(200));
    const read = await call(world.t.app, author, 'GET', `/api/marketplace/listings/${fresh}`);
    expect(read.json().rating).toEqual({ average: Math.round((16 / 6) * 100) / 100, count: 6 });
  });
});

describe('trust figures', () => {
  test('count runs of installed copies in the last 30 days and the share of ended ones that completed', async () => {
    const buyer = await signUp(world.t.app);
    const copy = await install(world.t.app, buyer, listingId);
    const now = world.t.clock.now();
    const run = (status: 'completed' | 'failed' | 'running', daysAgo: number, macroId = copy.id, userId = buyer.id) => ({
      user_id: userId,
      execution_id: `exec-${Math.random().toString(16).slice(2)}`,
      status,
      macro_id: macroId,
      macro_name: 'Farm bot',
      execution_type: 'block' as const,
      started_at: now - daysAgo * 86_400_000,
      created_at: now,
      updated_at: now,
    });
    const own = await blockMacro(world.t.app, buyer);
    // A second buyer's copy counts too; a run filed under the first copy's id by someone else does not.
    const second = await signUp(world.t.app);
    const secondCopy = await install(world.t.app, second, listingId);
    await world.t.db.kysely
      .insertInto('executions')
      .values([
        run('completed', 1), run('completed', 2), run('completed', 29), run('failed', 3), run('running', 0), run('completed', 31), run('failed', 1, own.id),
        run('completed', 4, secondCopy.id, second.id), run('failed', 4, copy.id, second.id),
      ])
      .execute();
    const read = await call(world.t.app, buyer, 'GET', `/api/marketplace/listings/${listingId}`);
    expect(read.json().trust).toEqual({ window_days: 30, runs: 6, finished_runs: 5, completed_share: 0.8 });
    // A listing with thousands of copies is counted in batches, to the same sums.
    const many = [...Array.from({ length: 4500 }, (_, i) => ({ userId: second.id, macroId: 1_000_000 + i })), { userId: buyer.id, macroId: copy.id }, { userId: second.id, macroId: secondCopy.id }];
    expect(await runOutcomesOf(world.t.db.kysely, many, now - 30 * 86_400_000)).toEqual({ runs: 6, finished: 5, completed: 4 });
  });
});

describe('the operator', () => {
  test('lists listings with installs and the author email, and hides one: nobody can install it, the author still sees it', async () => {
    const buyer = await signUp(world.t.app);
    const listed = await world.t.app.inject({ url: '/admin/marketplace/listings', headers: adminAuth });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().rows).toContainEqual(expect.objectContaining({ id: listingId, author_email: author.email, installs: expect.any(Number) }));
    const hidden = await world.t.app.inject({ method: 'PUT', url: `/admin/marketplace/listings/${listingId}/hidden`, headers: adminAuth, payload: { hidden: true, reason: 'spam' } });
    expect(hidden.json()).toMatchObject({ hidden_by_operator: true, hidden_reason: 'spam' });
    expect((await call(world.t.app, buyer, 'GET', `/api/marketplace/listings/${listingId}`)).statusCode).toBe(404);
    expect((await call(world.t.app, buyer, 'POST', `/api/marketplace/listings/${listingId}/install`, {})).statusCode).toBe(404);
    const own = await call(world.t.app, author, 'POST', `/api/marketplace/listings/${listingId}/install`, {});
    expect(own.statusCode).toBe(409);
    expect(own.json().details.code).toBe('listing_hidden');
    expect((await call(world.t.app, author, 'GET', `/api/marketplace/listings/${listingId}`)).json().hidden_by_operator).toBe(true);
    const onlyHidden = await world.t.app.inject({ url: '/admin/marketplace/listings?hidden=true', headers: adminAuth });
    expect(onlyHidden.json().rows.map((row: { id: number }) => row.id)).toEqual([listingId]);
    await world.t.app.inject({ method: 'PUT', url: `/admin/marketplace/listings/${listingId}/hidden`, headers: adminAuth, payload: { hidden: false } });
    expect((await call(world.t.app, buyer, 'GET', `/api/marketplace/listings/${listingId}`)).statusCode).toBe(200);
  });

  test('a missing listing answers 404; a session is no admin credential', async () => {
    const res = await world.t.app.inject({ method: 'PUT', url: '/admin/marketplace/listings/999999/hidden', headers: adminAuth, payload: { hidden: true } });
    expect(res.statusCode).toBe(404);
    const bySession = await world.t.app.inject({ url: '/admin/marketplace/listings', headers: author.auth });
    expect(bySession.statusCode).toBe(401);
  });
});
