// SIM_SEED (decisions.md §15): two real `svc serve` processes, each on fresh data, with the same
// seed. A person opens Daily Feed from the home screen through the live view's tap route, waits
// out the feed's loading (taps during it land on nothing), goes to sign in and back to the feed,
// which loads again: both devices drew the same loading times, from the same generator state.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { type Db, openDatabase, sqliteFileIn } from '../../../src/db/database.js';
import { TEST_DATABASE_URL } from '../../helpers/engine.js';
import { databaseUrlFor, spawnSvc, type SvcProcess } from '../../helpers/svc-process.js';

const children: SvcProcess[] = [];
const dirs: string[] = [];
const schemas: string[] = [];
const dbs: Db[] = [];

async function onServer(sql: string) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

afterAll(async () => {
  for (const child of children) await child.stop();
  for (const db of dbs) await db.close();
  for (const schema of schemas) await onServer(`drop schema if exists ${schema} cascade`);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Drawn {
  loading: number[];
  rng: number;
}

async function runOnFreshServer(seed: string): Promise<Drawn> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-seed-'));
  dirs.push(dir);
  const schema = TEST_DATABASE_URL ? `t_seed_${randomBytes(5).toString('hex')}` : undefined;
  if (schema) {
    await onServer(`create schema ${schema}`);
    schemas.push(schema);
  }
  const child = spawnSvc('serve', { SECRET_KEY: randomBytes(32).toString('hex'), DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrlFor(schema), SIM_SEED: seed, SIM_BOOT_MS: '0' });
  children.push(child);
  const [, base] = await child.waitForStderr(/API:\s+(\S+)\/api/, 30_000);
  const request = async (method: string, path: string, token?: string, body?: object) => {
    const res = await fetch(`${base}${path}`, { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, body: (await res.json()) as { session: { token: string }; id: number; element: { element_id: string; text: string } | null } };
  };
  const signup = await request('POST', '/api/auth/signup', undefined, { email: `seed-${randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery' });
  const token = signup.body.session.token;
  const device = await request('POST', '/api/hosted/devices', token, { name: 'Seeded' });
  const id = device.body.id;
  expect((await request('POST', `/api/hosted/devices/${id}/start`, token)).status).toBe(202);
  // The apps route answers 409 device_not_ready until the boot is done.
  await expect.poll(async () => (await request('GET', `/api/hosted/devices/${id}/apps`, token)).status, { timeout: 20_000, interval: 50 }).toBe(200);
  const tap = async (x: number, y: number) => (await request('POST', `/api/hosted/devices/${id}/tap`, token, { x, y })).body.element;

  const db = openDatabase({ databaseUrl: TEST_DATABASE_URL, sqliteFile: schema ? undefined : sqliteFileIn(dir), pgSchema: schema, poolSize: 1 });
  dbs.push(db);
  const state = async () => JSON.parse((await db.kysely.selectFrom('sim_devices').select('state').where('device_id', '=', id).executeTakeFirstOrThrow()).state);
  const loading: number[] = [];
  const feedLoading = async () => (await state()).screens['com.example.feed/feed'].loading_ms as number;

  // Home screen: Corner Shop, Daily Feed, Settings in a row; Daily Feed is the second icon.
  expect(await tap(405, 1940)).toMatchObject({ text: 'Daily Feed' });
  loading.push(await feedLoading());
  // The account button answers only once the feed has loaded.
  await expect.poll(async () => (await tap(975, 168))?.element_id, { timeout: 5_000, interval: 100 }).toBe('account');
  expect(await tap(540, 2112)).toMatchObject({ element_id: 'sign_in_button' });
  expect(await tap(540, 2241)).toMatchObject({ element_id: 'to_feed' });
  loading.push(await feedLoading());
  return { loading, rng: (await state()).rng as number };
}

test('the same SIM_SEED gives the same loading times in two server processes on fresh data', async () => {
  const first = await runOnFreshServer('20260301');
  const second = await runOnFreshServer('20260301');
  expect(second).toEqual(first);
  for (const ms of first.loading) expect(ms >= 500 && ms <= 2500, String(ms)).toBe(true);
  expect(first.loading[0]).not.toBe(first.loading[1]);
}, 90_000);
