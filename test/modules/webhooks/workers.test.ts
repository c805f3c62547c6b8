// Workers and leases: two workers on one PostgreSQL never send one attempt twice; a worker
// killed mid-delivery leaves a lease that expires, and another worker then delivers with
// the same webhook-id; a restarted `serve` delivers what was pending; a running worker is
// woken by the wake-up (in-process on SQLite, LISTEN/NOTIFY on PostgreSQL) instead of
// waiting for its poll.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { DELIVERY_LEASE_MS as LEASE_MS } from '../../../src/modules/webhooks/delivery-job.js';
import { createTestApp, dropStorage, newStorage, type TestApp, type TestStorage } from '../../helpers/app.js';
import { TEST_DATABASE_URL } from '../../helpers/engine.js';
import { createKey, signUp } from '../../helpers/users.js';
import { createEndpoint, deliveriesOf, makeTestCa, type Receiver, sendTestEvent, startReceiver, type TestCa, testWorker } from '../../helpers/webhooks.js';

const ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '0,10', WEBHOOK_POLL_MS: '60000' };
let ca: TestCa;
let rx: Receiver;
let storage: TestStorage;
let dir: string;

beforeAll(async () => {
  ca = makeTestCa();
  rx = await startReceiver(ca);
  dir = mkdtempSync(join(tmpdir(), 'svc-workers-'));
  // Storage that outlives one app, as a database outlives a process.
  storage = { ...newStorage(), ...(TEST_DATABASE_URL ? {} : { sqliteFile: join(dir, 'service.sqlite') }) };
  if (storage.pgSchema) {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`create schema ${storage.pgSchema}`);
    await client.end();
  }
});
afterAll(async () => {
  await rx?.close();
  await dropStorage(storage);
  rmSync(dir, { recursive: true, force: true });
  ca?.dispose();
});

async function account(t: TestApp) {
  const user = await signUp(t.app);
  const key = (await createKey(t.app, user)).key;
  return { user, key };
}

// Every process of one deployment shares SECRET_KEY, or none could read the others' secrets.
const SECRET_KEY = randomBytes(32).toString('hex');
const openApp = () => createTestApp({ env: { ...ENV, SECRET_KEY }, shareWith: storage, clock: new ManualClock(Date.now()) });

describe('a restart of serve with deliveries pending', () => {
  test('a new process delivers what was never attempted and what was waiting for a retry', async () => {
    const first = await openApp();
    const { key } = await account(first);
    const { endpoint } = await createEndpoint(first.app, key, { url: `${rx.url}?restart` });
    const firstWorker = testWorker(first, ca);
    await sendTestEvent(first.app, key, endpoint.id);
    rx.answers.push({ status: 503 });
    await firstWorker.worker.runOnce();
    await sendTestEvent(first.app, key, endpoint.id);
    await firstWorker.close();
    await first.close();
    expect((rx.requests.filter((r) => r.path.endsWith('?restart')))).toHaveLength(1);

    const second = await openApp();
    second.clock.advance(10_000);
    const secondWorker = testWorker(second, ca);
    secondWorker.worker.start();
    try {
      await rx.waitFor(3);
      await expect.poll(async () => (await deliveriesOf(second.app, key)).map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    } finally {
      await secondWorker.close();
      await second.close();
    }
  });

  test('a running worker is woken by the wake-up, not its 60 s poll', async () => {
    const t = await openApp();
    const handle = testWorker(t, ca);
    handle.worker.start();
    try {
      const { key } = await account(t);
      const { endpoint } = await createEndpoint(t.app, key, { url: `${rx.url}?nudge` });
      const before = rx.requests.length;
      const started = Date.now();
      await sendTestEvent(t.app, key, endpoint.id);
      await rx.waitFor(before + 1, 20_000);
      // Far below the 60 s poll, with room for a loaded machine.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await handle.close();
      await t.close();
    }
  });
});

describe('a worker killed mid-delivery', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
  });

  test('its lease holds off other workers until it expires; then another worker delivers with the same webhook-id', async () => {
    const t = await openApp();
    try {
      const { key } = await account(t);
      const { endpoint } = await createEndpoint(t.app, key, { url: `${rx.url}?killed` });
      const eventId = await sendTestEvent(t.app, key, endpoint.id);
      const databaseUrl = TEST_DATABASE_URL ? new URL(TEST_DATABASE_URL) : undefined;
      databaseUrl?.searchParams.set('options', `-c search_path=${storage.pgSchema}`);
      rx.answers.push({ hang: true });
      const before = rx.requests.length;
      // The real binary, trusting the test CA the way an operator would: NODE_EXTRA_CA_CERTS.
      child = spawn('node', ['dist/main.js', 'worker'], {
        stdio: 'ignore',
        env: {
          ...process.env,
          ...ENV,
          WEBHOOK_POLL_MS: '50',
          DATA_DIR: dir,
          DATABASE_URL: databaseUrl?.toString() ?? '',
          REDIS_URL: '',
          BASE_URL: '',
          SECRET_KEY,
          NODE_EXTRA_CA_CERTS: ca.caFile,
          LOG_LEVEL: 'warn',
        },
      });
      await rx.waitFor(before + 1, 15_000);
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;

      const [delivery] = await deliveriesOf(t.app, key);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 0 });
      const other = testWorker(t, ca, { name: 'second-worker' });
      try {
        // Within the lease: not taken, not sent again.
        t.clock.set(Date.now());
        expect(await other.worker.runOnce()).toBe(0);
        t.clock.set(Date.now() + LEASE_MS + 1000);
        expect(await other.worker.runOnce()).toBe(1);
      } finally {
        await other.close();
      }
      const sent = rx.requests.slice(before);
      expect(sent).toHaveLength(2);
      expect(sent.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
      expect(sent[1].body).toBe(sent[0].body);
      expect((await deliveriesOf(t.app, key))[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)('two workers on one PostgreSQL (FOR UPDATE SKIP LOCKED)', () => {
  test('60 deliveries claimed concurrently by two processes are each sent exactly once', async () => {
    const a = await openApp();
    const b = await openApp();
    b.clock.set(a.clock.now());
    const wa = testWorker(a, ca, { name: 'worker-a' });
    const wb = testWorker(b, ca, { name: 'worker-b' });
    try {
      const { user, key } = await account(a);
      await createEndpoint(a.app, key, { url: `${rx.url}?pair`, event_types: ['custom.*'] });
      for (let i = 0; i < 60; i++) {
        const res = await a.app.inject({ method: 'POST', url: '/api/webhooks/events', headers: user.auth, payload: { type: 'custom.tick', data: { i } } });
        expect(res.statusCode).toBe(202);
      }
      const before = rx.requests.length;
      const counts = await Promise.all([wa.worker.runOnce(), wb.worker.runOnce(), wa.worker.runOnce(), wb.worker.runOnce()]);
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(60);
      const ids = rx.requests.slice(before).map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(60);
      expect(new Set(ids).size).toBe(60);
      expect((await deliveriesOf(a.app, key)).every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
    } finally {
      await wa.close();
      await wb.close();
      await b.close();
      await a.close();
    }
  });
});
