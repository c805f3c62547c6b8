// Wake-ups end to end, with the real binary in a second process and every poll set to 60 s,
// so only a wake-up can explain a delivery within two seconds.
// - PostgreSQL: a delivery queued through an app instance in this process (a test event, a
//   redelivery) is sent by `svc worker` in another process, woken by LISTEN/NOTIFY.
// - SQLite: `svc serve` delivers what its own HTTP API queued, woken by the in-process signal
//   (the workers `serve` runs beside the API, as wired in main.ts).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { createTestApp } from '../../helpers/app.js';
import { TEST_DATABASE_URL } from '../../helpers/engine.js';
import { databaseUrlFor, spawnSvc, type SvcProcess } from '../../helpers/svc-process.js';
import { createKey, signUp } from '../../helpers/users.js';
import { createEndpoint, deliveriesOf, makeTestCa, type Receiver, sendTestEvent, startReceiver, type TestCa } from '../../helpers/webhooks.js';

const ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_MS: '60000' };
const SECRET_KEY = randomBytes(32).toString('hex');
// Far below the 60 s poll, with room for a loaded machine.
const WITHIN_MS = 10_000;
let ca: TestCa;
let rx: Receiver;
let dir: string;
let child: SvcProcess | undefined;

beforeAll(async () => {
  ca = makeTestCa();
  rx = await startReceiver(ca);
  dir = mkdtempSync(join(tmpdir(), 'svc-wakeup-'));
});
afterAll(async () => {
  child?.kill();
  await rx?.close();
  rmSync(dir, { recursive: true, force: true });
  ca?.dispose();
});

/** Runs `queue` and answers how long until the receiver had one more request. */
async function timeToDelivery(queue: () => Promise<unknown>): Promise<number> {
  const before = rx.requests.length;
  const started = Date.now();
  await queue();
  await rx.waitFor(before + 1, 10_000);
  return Date.now() - started;
}

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL: queued in this process, delivered by `svc worker` in another', () => {
  test('a test event and a redelivery each start in the other process at once, not at its 60 s poll', async () => {
    const t = await createTestApp({ env: { ...ENV, SECRET_KEY }, clock: new ManualClock(Date.now()) });
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      const user = await signUp(t.app);
      const { key } = await createKey(t.app, user);
      const { endpoint } = await createEndpoint(t.app, key, { url: `${rx.url}?pg` });

      child = spawnSvc('worker', { ...ENV, SECRET_KEY, DATABASE_URL: databaseUrlFor(t.storage.pgSchema), DATA_DIR: dir, NODE_EXTRA_CA_CERTS: ca.caFile });
      // Ready when its wake-up connection listens (the last statement it runs on connecting).
      const listening = async () =>
        (
          await admin.query("select 1 from pg_stat_activity where application_name = $1 and state = 'idle' and query = 'select pg_backend_pid() as pid'", [
            `svc-wakeup:${child?.child.pid}`,
          ])
        ).rowCount;
      await expect.poll(listening, { timeout: 15_000, interval: 50 }).toBe(1);
      // Let the look it takes after connecting finish: from here on only a notification wakes it.
      await new Promise((resolve) => setTimeout(resolve, 300));

      const first = await timeToDelivery(() => sendTestEvent(t.app, key, endpoint.id));
      await expect.poll(async () => (await deliveriesOf(t.app, key))[0]?.status).toBe('succeeded');
      const [delivery] = await deliveriesOf(t.app, key);
      const again = await timeToDelivery(async () => {
        const res = await t.app.inject({ method: 'POST', url: `/api/webhooks/deliveries/${delivery.id}/redeliver`, headers: { 'x-api-key': key } });
        expect(res.statusCode, res.body).toBe(200);
      });
      process.stdout.write(`cross-process wake-up: test event delivered in ${first} ms, redelivery in ${again} ms (poll 60 s)\n`);
      expect(first).toBeLessThan(WITHIN_MS);
      expect(again).toBeLessThan(WITHIN_MS);
      await expect.poll(async () => (await deliveriesOf(t.app, key))[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
      // Sent by the other process: this one runs no worker.
      expect(rx.requests.filter((r) => r.path.endsWith('?pg'))).toHaveLength(2);
      expect(await child.stop()).toBe(0);
    } finally {
      child?.kill();
      await admin.end();
      await t.close();
    }
  });
});

describe.skipIf(!!TEST_DATABASE_URL)('SQLite: `svc serve` delivers what its own API queued', () => {
  test('the in-process signal starts the delivery at once, not at the 60 s poll', async () => {
    child = spawnSvc('serve', { ...ENV, SECRET_KEY, DATABASE_URL: '', DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', NODE_EXTRA_CA_CERTS: ca.caFile });
    const [, base] = await child.waitForStderr(/API:\s+(\S+)\/api/);
    const call = async <T>(method: string, path: string, headers: Record<string, string>, body?: object): Promise<T> => {
      const res = await fetch(`${base}${path}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      expect(res.status, path).toBeLessThan(300);
      return (await res.json()) as T;
    };
    try {
      const signup = await call<{ session: { token: string } }>('POST', '/api/auth/signup', {}, { email: 'wake@example.com', password: 'correct horse battery' });
      const session = { authorization: `Bearer ${signup.session.token}` };
      const { key } = await call<{ key: string }>('POST', '/api/api-keys', session, { name: 'k' });
      const { endpoint } = await call<{ endpoint: { id: number } }>('POST', '/api/webhooks', { 'x-api-key': key }, { url: `${rx.url}?sqlite` });
      await new Promise((resolve) => setTimeout(resolve, 300));

      const elapsed = await timeToDelivery(() => call('POST', `/api/webhooks/${endpoint.id}/test`, { 'x-api-key': key }));
      process.stdout.write(`in-process wake-up: test event delivered in ${elapsed} ms (poll 60 s)\n`);
      expect(elapsed).toBeLessThan(WITHIN_MS);
      await expect.poll(async () => (await call<{ rows: { status: string }[] }>('GET', '/api/webhooks/deliveries', { 'x-api-key': key })).rows[0]?.status).toBe('succeeded');
      expect(await child.stop()).toBe(0);
    } finally {
      child.kill();
    }
  });
});
