// Hostile input on every marketplace route: a key instead of a session (401), huge and
// deep bodies, wrong types, absurd ids. None answers 500, none changes state.
import { beforeAll, describe, expect, test } from 'vitest';
import { useAppAndUser } from '../../helpers/app-user.js';
import { blockMacro, call, MARKETPLACE_ENV, marketplaceCounts, publish } from '../../helpers/marketplace.js';
import { createKey, withKey } from '../../helpers/users.js';

const world = useAppAndUser({ env: MARKETPLACE_ENV });
let listingId: number;
let macroId: number;
beforeAll(async () => {
  macroId = (await blockMacro(world.t.app, world.user)).id;
  listingId = (await publish(world.t.app, world.user, macroId)).id;
});

const routes = () =>
  [
    ['POST', '/api/marketplace/listings', { macro_id: macroId, title: 't', summary: 's' }],
    ['POST', `/api/marketplace/listings/${listingId}/versions`, {}],
    ['PUT', `/api/marketplace/listings/${listingId}`, { title: 'x' }],
    ['DELETE', `/api/marketplace/listings/${listingId}`, undefined],
    ['GET', '/api/marketplace/listings', undefined],
    ['GET', `/api/marketplace/listings/${listingId}`, undefined],
    ['POST', `/api/marketplace/listings/${listingId}/install`, {}],
    ['PUT', `/api/marketplace/installed/${macroId}`, {}],
    ['PUT', `/api/marketplace/listings/${listingId}/review`, { stars: 5 }],
    ['GET', `/api/marketplace/listings/${listingId}/reviews`, undefined],
  ] as const;

describe('credentials', () => {
  test('a full-access key is refused on every marketplace route (401 missing_credentials), and nothing changes', async () => {
    const { key } = await createKey(world.t.app, world.user);
    const before = await marketplaceCounts(world.t);
    for (const [method, url, payload] of routes()) {
      const res = await world.t.app.inject({ method, url, headers: withKey(key), ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().details.code).toBe('missing_credentials');
    }
    expect(await marketplaceCounts(world.t)).toEqual(before);
  });
});

describe('bodies', () => {
  test.each([
    ['a huge description', { macro_id: 1, title: 't', summary: 's', description: 'x'.repeat(2 * 1024 * 1024) }, [413, 422]],
    ['tags of the wrong type', { macro_id: 1, title: 't', summary: 's', tags: 'farm' }, [422]],
    ['too many tags', { macro_id: 1, title: 't', summary: 's', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, [422]],
    ['an upper-case tag', { macro_id: 1, title: 't', summary: 's', tags: ['Farm'] }, [422]],
    ['a repeated tag', { macro_id: 1, title: 't', summary: 's', tags: ['farm', 'farm'] }, [422]],
    ['a blank title', { macro_id: 1, title: '   ', summary: 's' }, [422]],
    ['a string id', { macro_id: '1', title: 't', summary: 's' }, [422]],
    ['an absurd id', { macro_id: 1e300, title: 't', summary: 's' }, [422]],
    ['an array', [1, 2], [422]],
    ['a NUL in the title', { macro_id: 1, title: 'a\u0000b', summary: 's' }, [422]],
  ])('%s is refused without a 500 and without a change', async (_what, payload, statuses) => {
    const before = await marketplaceCounts(world.t);
    const res = await call(world.t.app, world.user, 'POST', '/api/marketplace/listings', payload);
    expect(statuses, res.body).toContain(res.statusCode);
    expect(await marketplaceCounts(world.t)).toEqual(before);
  });

  test('a body nested 5,000 deep is refused without a 500 and without a change', async () => {
    const before = await marketplaceCounts(world.t);
    const payload = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await world.t.app.inject({ method: 'POST', url: '/api/marketplace/listings', headers: { ...world.user.auth, 'content-type': 'application/json' }, payload });
    expect([400, 422], res.body).toContain(res.statusCode);
    expect(await marketplaceCounts(world.t)).toEqual(before);
  });

  test.each([
    ['PUT', (): string => `/api/marketplace/listings/${listingId}`, { visible: 'yes' }],
    ['PUT', (): string => `/api/marketplace/listings/${listingId}`, {}],
    ['POST', (): string => `/api/marketplace/listings/${listingId}/install`, { version: 0 }],
    ['POST', (): string => `/api/marketplace/listings/${listingId}/install`, { version: 'latest' }],
    ['POST', (): string => `/api/marketplace/listings/${listingId}/versions`, { notes: 5 }],
    ['PUT', (): string => '/api/marketplace/listings/99999999999999999999', { title: 'x' }],
    ['GET', (): string => '/api/marketplace/listings/abc', undefined],
  ] as const)('%s %s with %j answers 422', async (method, url, payload) => {
    const before = await marketplaceCounts(world.t);
    const res = await call(world.t.app, world.user, method, url(), payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(await marketplaceCounts(world.t)).toEqual(before);
  });
});
