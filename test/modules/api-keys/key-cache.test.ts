// The in-process key cache on the embedded default: this process's revocations are seen by
// the very next request; a change another program commits to the SQLite file (the sqlite3
// shell, a second process) is seen within the data_version check interval.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../../src/db/database.js';
import { LocalAuthEpoch } from '../../../src/modules/api-keys/auth-epoch.js';
import { createTestApp, newStorage, type TestApp } from '../../helpers/app.js';
import { ENGINE } from '../../helpers/engine.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';

describe('LocalAuthEpoch', () => {
  test('moves on a local bump at once, and on an external change once the interval has passed', async () => {
    let external = 1;
    const epoch = new LocalAuthEpoch(() => external, 50);
    const first = epoch.current();
    await epoch.bump();
    const afterBump = epoch.current();
    expect(afterBump).not.toBe(first);
    external = 2;
    expect(epoch.current()).toBe(afterBump); // not read again within the interval
    await new Promise((r) => setTimeout(r, 60));
    expect(epoch.current()).not.toBe(afterBump);
  });
});

describe.skipIf(ENGINE !== 'sqlite')('the key cache on a SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-keycache-'));
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ shareWith: { ...newStorage(), sqliteFile: join(dir, 'service.sqlite') }, env: { REDIS_URL: '' } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("another program's revocation reaches the cache within the check interval", async () => {
    const user = await signUp(t.app);
    const { key, id } = await createKey(t.app, user);
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(200); // cached now
    const other = openDatabase({ sqliteFile: join(dir, 'service.sqlite') });
    await other.kysely.updateTable('api_keys').set({ revoked_at: Date.now() }).where('id', '=', id).execute();
    await other.close();
    // Seen once the check interval has passed (polled, so a loaded machine's late timers do not matter).
    await expect.poll(async () => (await t.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode, { timeout: 5_000, interval: 50 }).toBe(401);
  });

  test("this process's revocation is seen by the very next request", async () => {
    const user = await signUp(t.app);
    const { key, id } = await createKey(t.app, user);
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${id}`, headers: user.auth });
    expect((await t.app.inject({ url: '/api/whoami', headers: withKey(key) })).statusCode).toBe(401);
  });
});
