// Idempotent requests across processes (decisions.md §19: "it holds across processes"): two
// real `serve` processes on one PostgreSQL database take the same Idempotency-Key at once;
// exactly one run starts, every other answer is its replay or 409 idempotency_key_in_use, and
// the other process later replays the kept answer. SQLite is one process's database by
// design (ARCHITECTURE.md), so this file runs on PostgreSQL only.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp, type TestStorage } from '../helpers/app.js';
import { TEST_DATABASE_URL } from '../helpers/engine.js';
import { createCloudDevice } from '../helpers/resources.js';
import { databaseUrlFor, serveOnFreePort, type SvcProcess } from '../helpers/svc-process.js';
import { createKey, signUp } from '../helpers/users.js';

const SECRET_KEY = randomBytes(32).toString('hex');
let t: (TestApp & { storage: TestStorage }) | undefined;
const children: SvcProcess[] = [];

afterAll(async () => {
  await Promise.all(children.map((c) => c.stop()));
  await t?.close();
});

async function serve(): Promise<string> {
  const { svc, base } = await serveOnFreePort(() => ({ SECRET_KEY, DATABASE_URL: databaseUrlFor(t?.storage.pgSchema), RUN_WORKERS: 'false', RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' }), 20_000);
  children.push(svc);
  return base;
}

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL: one Idempotency-Key, two server processes', () => {
  test('one run starts; the rest are its replay or 409 in use; the other process replays the kept answer', async () => {
    // The children run on the real clock: the key must not have expired there.
    t = await createTestApp({ env: { SECRET_KEY }, clock: new ManualClock(Date.now()) });
    const user = await signUp(t.app);
    const key = (await createKey(t.app, user, { scopes: ['macros:run'] })).key;
    const device = (await createCloudDevice(t.app, user, { name: 'Shared' })).id as number;
    const macro = await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Long', kind: 'block', blocks: { version: 1, steps: [{ type: 'wait', ms: 600000 }] } } });
    const [a, b] = await Promise.all([serve(), serve()]);
    const idem = `across-${randomBytes(4).toString('hex')}`;
    const send = (base: string) =>
      fetch(`${base}/api/hosted/devices/${device}/run`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': idem }, body: JSON.stringify({ macro_id: macro.json().id }) }).then(async (r) => ({
        status: r.status,
        replayed: r.headers.get('idempotent-replayed'),
        retryAfter: r.headers.get('retry-after'),
        body: await r.text(),
      }));
    const answers = await Promise.all([a, b, a, b, a, b].map(send));
    const fresh = answers.filter((x) => x.status === 201 && x.replayed === null);
    expect(fresh, JSON.stringify(answers)).toHaveLength(1);
    for (const other of answers.filter((x) => x !== fresh[0])) {
      if (other.status === 409) {
        expect(JSON.parse(other.body).details.code).toBe('idempotency_key_in_use');
        expect(other.retryAfter).toBe('1');
      } else {
        expect(other).toMatchObject({ status: 201, replayed: 'true', body: fresh[0].body });
      }
    }
    for (const base of [a, b]) expect(await send(base)).toMatchObject({ status: 201, replayed: 'true', body: fresh[0].body });
    expect(await t.db.kysely.selectFrom('cloud_runs').select('id').where('device_id', '=', device).execute()).toHaveLength(1);
  }, 60_000);
});
