// The fuzz test's world: two accounts with one of everything, seeded through the real
// routes (run logs through the store, as the log shipper writes them), and the id pools the
// generators draw from. The second account's ids are "other accounts' ids": every one of
// them must answer as if it did not exist.
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../src/db/schema.js';
import { appendLogBatch } from '../../src/modules/run-logs/store.js';
import type { TestApp } from '../helpers/app.js';
import { createKey, type SignedUpUser, signUp } from '../helpers/users.js';
import { snapshotBody } from '../helpers/zip.js';

export const ADMIN_TOKEN = 'fuzz-admin-token-0123456789abcdef';
/** Resolves the one public name webhooks may use; every other name is private, so refused. */
export const PUBLIC_HOOK_HOST = 'hooks.example.net';
export const fuzzResolver = async (host: string) => (host === PUBLIC_HOOK_HOST ? ['93.184.216.34'] : ['10.9.9.9']);

export const PROJECTS = [
  [{ name: 'src/app.py', data: 'print("a")\n' }],
  [{ name: 'main.py', data: 'print("b")\n' }, { name: 'lib/util.py', data: 'X = 1\n' }],
].map((entries) => snapshotBody(entries));

export type Resource = 'macros' | 'devices' | 'groups' | 'profiles' | 'proxies' | 'assignments' | 'webhooks' | 'deliveries' | 'executions' | 'apiKeys' | 'users' | 'managedProxies';

export interface Pools {
  own: Record<Resource, number[]>;
  other: Record<Resource, number[]>;
  ownExecutionIds: string[];
  otherExecutionIds: string[];
}

export interface World {
  main: SignedUpUser;
  other: SignedUpUser;
  adminTarget: SignedUpUser;
  /** The full-access key every key route is called with; never revoked by the fuzzer. */
  key: { key: string; id: number };
}

async function call(t: TestApp, method: string, url: string, headers: Record<string, string>, payload?: object, expected = [200, 201, 202, 204]) {
  const res = await t.app.inject({ method: method as 'POST', url, headers, ...(payload ? { payload } : {}) });
  expect(expected, `${method} ${url}: ${res.body}`).toContain(res.statusCode);
  return res.body ? res.json() : undefined;
}

/** One of everything for `user`, through the routes a client would use. */
async function seedAccount(t: TestApp, user: SignedUpUser, key: string, tag: string): Promise<void> {
  const s = user.auth;
  const k = { 'x-api-key': key };
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const codeA = await call(t, 'POST', '/api/macros', s, { name: `${tag} code A`, kind: 'python', description: 'seeded' });
  const codeB = await call(t, 'POST', '/api/macros', s, { name: `${tag} code B`, kind: 'python' });
  await call(t, 'POST', '/api/macros', s, { name: `${tag} blocks`, kind: 'block', blocks: { version: 1, steps: [{ type: 'tap', x: 1, y: 2 }] } });
  await call(t, 'POST', `/api/macros/${codeA.id}/code-snapshot`, k, PROJECTS[0]);
  // Every code macro's Default profile exists from here on (it is made on first read).
  for (const macro of [codeA, codeB]) await call(t, 'GET', `/api/macro-setting-profiles?macro_id=${macro.id}`, k);
  const fast = await call(t, 'POST', '/api/macro-setting-profiles', k, { macro_id: codeA.id, name: 'Fast', args: { speed: 2 } });
  const byod = await call(t, 'POST', '/api/emulator/groups', s, { name: `${tag} desk`, kind: 'byod', description: 'local' });
  const cloud = await call(t, 'POST', '/api/emulator/groups', s, { name: `${tag} farm`, kind: 'cloud' });
  const local = await call(t, 'POST', '/api/emulator/devices', s, { name: `${tag} pixel`, port: 5555, group_id: byod.id });
  await call(t, 'PUT', `/api/emulator/devices/${local.id}`, s, { macro_id: codeA.id, profile_id: fast.id });
  await call(t, 'POST', '/api/hosted/devices', s, { name: `${tag} cloud phone`, group_id: cloud.id });
  const report = (execution_id: string, status: string, ended?: object) =>
    call(t, 'POST', '/api/executions/report', s, { execution_id, status, macro_id: codeA.id, device_id: local.id, execution_type: 'python', started_at: '2026-03-02T09:00:00Z', ...ended });
  const running = await report(`${tag}-run-1`, 'running');
  const done = await report(`${tag}-run-2`, 'completed', { ended_at: '2026-03-02T09:05:00Z', exit_code: 0 });
  for (const run of [running, done]) await appendLogBatch(t.db, run.id, ['started', 'working', 'done'], t.clock.now());
  await call(t, 'POST', '/api/webhooks', k, { url: `https://${PUBLIC_HOOK_HOST}/${tag}`, description: 'seeded', event_types: ['*'] });
  const hooks = await call(t, 'GET', '/api/webhooks', k);
  await call(t, 'POST', `/api/webhooks/${hooks.items[0].id}/test`, k);
  const proxy = await call(t, 'POST', '/api/proxy', k, { host: '10.1.2.3', port: 8080, scheme: 'http', label: `${tag} own`, username: 'u', password: 'p' });
  await call(t, 'POST', '/api/proxy/assignments', k, { proxy_id: proxy.id, emulator_device_id: local.id, session_type: 'sticky' });
  await call(t, 'POST', '/api/proxy/usage', s, { samples: [{ proxy_id: proxy.id, device_id: local.id, bytes_up: 100, bytes_down: 2000 }] });
  await call(t, 'POST', `/admin/users/${user.id}/proxies`, admin, { host: '10.2.3.4', port: 3128, label: `${tag} managed` });
}

export async function seedWorld(t: TestApp): Promise<World> {
  const adminTarget = await signUp(t.app);
  const other = await signUp(t.app);
  const main = await signUp(t.app);
  const key = await createKey(t.app, main, { name: 'fuzzer' });
  // Spare keys, for the revoke route to take.
  for (const name of ['spare 1', 'spare 2']) await createKey(t.app, main, { name });
  await seedAccount(t, main, key.key, 'main');
  await seedAccount(t, other, (await createKey(t.app, other)).key, 'other');
  return { main, other, adminTarget, key };
}

/** The ids each account holds right now (the fuzzer creates and deletes as it goes). */
export async function loadPools(db: Kysely<Database>, world: World): Promise<Pools> {
  const byOwner = async (table: 'macros' | 'devices' | 'device_groups' | 'macro_setting_profiles' | 'proxies' | 'proxy_assignments' | 'webhook_endpoints' | 'webhook_deliveries' | 'executions' | 'api_keys', userId: number) =>
    (await db.selectFrom(table).select(['id']).where('user_id', '=', userId).orderBy('id').execute()).map((r) => Number(r.id));
  const pools = async (userId: number) => ({
    macros: await byOwner('macros', userId),
    devices: await byOwner('devices', userId),
    groups: await byOwner('device_groups', userId),
    profiles: await byOwner('macro_setting_profiles', userId),
    proxies: await byOwner('proxies', userId),
    assignments: await byOwner('proxy_assignments', userId),
    webhooks: await byOwner('webhook_endpoints', userId),
    deliveries: await byOwner('webhook_deliveries', userId),
    executions: await byOwner('executions', userId),
    apiKeys: (await byOwner('api_keys', userId)).filter((id) => id !== world.key.id),
    // The admin routes act on any account but the fuzzer's own (its subscription must hold).
    users: [world.adminTarget.id, world.other.id],
    managedProxies: (await db.selectFrom('proxies').select('id').where('mode', '=', 'managed').execute()).map((r) => Number(r.id)),
  });
  const executionIds = async (userId: number) => (await db.selectFrom('executions').select('execution_id').where('user_id', '=', userId).execute()).map((r) => r.execution_id);
  return { own: await pools(world.main.id), other: await pools(world.other.id), ownExecutionIds: await executionIds(world.main.id), otherExecutionIds: await executionIds(world.other.id) };
}
