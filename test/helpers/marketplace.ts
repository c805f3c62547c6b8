// Marketplace tests' shortcuts: an author with a code macro (synced through the real code-sync
// route) or a block macro, publishing through the routes, and reading tables to prove that a
// refusal changed nothing.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { createMacro } from './resources.js';
import { createKey, type SignedUpUser, withKey } from './users.js';
import { type RawEntry, snapshotBody } from './zip.js';

export const ADMIN_TOKEN = 'admin-token-for-marketplace-tests-0123';
export const adminAuth = { authorization: `Bearer ${ADMIN_TOKEN}` };
export const MARKETPLACE_ENV = { ADMIN_TOKEN, RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' };

export const PROGRAM = { version: 1, steps: [{ type: 'tap', text: 'Sign in' }, { type: 'wait', ms: 500 }] };

export function call(app: FastifyInstance, user: SignedUpUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return app.inject({ method, url, headers: user.auth, ...(payload === undefined ? {} : { payload: payload as object }) });
}

/** Uploads `entries` as the macro's current code through the code-sync route. */
export async function syncCode(app: FastifyInstance, user: SignedUpUser, macroId: number, entries: readonly RawEntry[]) {
  const { key } = await createKey(app, user, { scopes: ['macros:run'] });
  const res = await app.inject({ method: 'POST', url: `/api/macros/${macroId}/code-snapshot`, headers: withKey(key), payload: snapshotBody(entries) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { worktree_hash: string };
}

/** A code macro with synced code and, when given, Default arguments. */
export async function codeMacro(app: FastifyInstance, user: SignedUpUser, entries: readonly RawEntry[], args?: Record<string, unknown>) {
  const macro = await createMacro(app, user, { kind: 'python', name: 'Farm bot' });
  const synced = await syncCode(app, user, macro.id, entries);
  if (args) {
    const profiles = await call(app, user, 'GET', `/api/macro-setting-profiles?macro_id=${macro.id}`);
    const def = profiles.json().items.find((p: { name: string }) => p.name === 'Default');
    const put = await call(app, user, 'PUT', `/api/macro-setting-profiles/${def.id}`, { args });
    expect(put.statusCode, put.body).toBe(200);
  }
  return { id: macro.id as number, worktreeHash: synced.worktree_hash };
}

export async function blockMacro(app: FastifyInstance, user: SignedUpUser, blocks: unknown = PROGRAM) {
  const res = await call(app, user, 'POST', '/api/macros', { name: 'Tapper', kind: 'block', blocks });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}

export async function publish(app: FastifyInstance, user: SignedUpUser, macroId: number, extra: Record<string, unknown> = {}) {
  const res = await call(app, user, 'POST', '/api/marketplace/listings', { macro_id: macroId, title: 'Farm bot', summary: 'Harvests crops every hour', tags: ['farm'], ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function install(app: FastifyInstance, user: SignedUpUser, listingId: number, payload: object = {}) {
  const res = await call(app, user, 'POST', `/api/marketplace/listings/${listingId}/install`, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Row counts of every marketplace table (and the tables an install writes), to prove a refusal wrote nothing. */
export async function marketplaceCounts(t: TestApp) {
  const tables = ['marketplace_listings', 'marketplace_versions', 'marketplace_reviews', 'marketplace_listing_tags', 'marketplace_images', 'macros', 'macro_setting_profiles', 'code_snapshots', 'code_blobs'] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await t.db.kysely.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  const listings = await t.db.kysely.selectFrom('marketplace_listings').select(['id', 'installs', 'rating_sum', 'rating_count', 'title', 'latest_version']).orderBy('id').execute();
  return { counts, listings };
}
