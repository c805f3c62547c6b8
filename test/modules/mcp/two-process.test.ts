// A token dies with its key in every process: a second `svc serve` on the same storage (a
// shared SQLite file, or PostgreSQL and Redis) has the token and its key cached, the key is
// revoked through this process, and the other refuses the token on its next request
// (PostgreSQL+Redis: at once, through the shared epoch; SQLite: within the 200 ms the key
// cache takes to notice another process's write, as for keys themselves).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sqliteFileIn } from '../../../src/db/database.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { createTestApp, newStorage, type TestApp, type TestStorage } from '../../helpers/app.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../helpers/engine.js';
import { databaseUrlFor, spawnSvc, type SvcProcess } from '../../helpers/svc-process.js';
import { createKey, signUp } from '../../helpers/users.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-'));
let t: TestApp & { storage: TestStorage };
let child: SvcProcess;
let base: string;

beforeAll(async () => {
  // The real clock: the other process has no other. On SQLite both open one file in `dir`;
  // on PostgreSQL this app creates the schema (and drops it at the end).
  const clock = new ManualClock(Date.now());
  t = TEST_DATABASE_URL ? await createTestApp({ clock }) : await createTestApp({ clock, shareWith: { ...newStorage(), sqliteFile: sqliteFileIn(dir) } });
  const { storage } = t;
  child = spawnSvc('serve', {
    SECRET_KEY: randomBytes(32).toString('hex'),
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrlFor(storage.pgSchema),
    REDIS_URL: TEST_REDIS_URL ?? '',
    REDIS_PREFIX: storage.redisPrefix,
  });
  [, base] = await child.waitForStderr(/API:\s+(\S+)\/api/, 30_000);
}, 40_000);
afterAll(async () => {
  await child?.stop();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const listTools = (token: string) =>
  fetch(`${base}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }, body: LIST });

describe(`a second serve process (${TEST_DATABASE_URL ? 'PostgreSQL + Redis' : 'shared SQLite file'})`, () => {
  test('refuses a token right after its key is revoked through this process', async () => {
    const user = await signUp(t.app);
    const { key, id } = await createKey(t.app, user);
    const minted = await fetch(`${base}/api/mcp/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_secret=${key}` });
    expect(minted.status).toBe(200);
    const { access_token: token } = (await minted.json()) as { access_token: string };
    // The other process has now resolved and cached the token and its key.
    expect((await listTools(token)).status).toBe(200);
    expect((await listTools(token)).status).toBe(200);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${id}`, headers: user.auth })).statusCode).toBe(200);
    const revokedAt = performance.now();
    if (TEST_DATABASE_URL && TEST_REDIS_URL) {
      const res = await listTools(token);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ details: { code: 'invalid_api_key' } });
      return;
    }
    await expect.poll(async () => (await listTools(token)).status, { timeout: 2000, interval: 20 }).toBe(401);
    expect(performance.now() - revokedAt).toBeLessThan(1000);
  });
});
